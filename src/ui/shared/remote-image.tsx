import { useEffect, useRef, useState, type ImgHTMLAttributes } from 'react'
import fallbackUrl from '@/ui/shared/assets/image-fallback.svg'

type RemoteImageProps = ImgHTMLAttributes<HTMLImageElement> & {
  readonly src: string
  readonly width: number
  readonly height: number
}

/**
 * An image from a remote service that falls back to a local picture when it fails to load.
 * A server-rendered page starts loading its images before the app runs, so an image that
 * failed before then (its `error` event long gone) is found by looking once, on mount.
 */
export function RemoteImage({ src, alt = '', ...rest }: RemoteImageProps) {
  const [failed, setFailed] = useState(false)
  const image = useRef<HTMLImageElement>(null)
  useEffect(() => {
    const element = image.current
    if (element !== null && element.complete && element.naturalWidth === 0) setFailed(true)
  }, [])
  return (
    <img
      {...rest}
      ref={image}
      alt={alt}
      src={failed ? fallbackUrl : src}
      onError={() => setFailed(true)}
      decoding="async"
    />
  )
}
