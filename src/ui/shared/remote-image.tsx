import { useState, type ImgHTMLAttributes } from 'react'
import fallbackUrl from '@/ui/shared/assets/image-fallback.svg'

type RemoteImageProps = ImgHTMLAttributes<HTMLImageElement> & {
  readonly src: string
  readonly width: number
  readonly height: number
}

/** An image from a remote service that falls back to a local picture when it fails to load. */
export function RemoteImage({ src, alt = '', ...rest }: RemoteImageProps) {
  const [failed, setFailed] = useState(false)
  return (
    <img
      {...rest}
      alt={alt}
      src={failed ? fallbackUrl : src}
      onError={() => setFailed(true)}
      decoding="async"
    />
  )
}
