import { useEffect, useRef, useState, type ImgHTMLAttributes } from 'react'

type RemoteImageProps = ImgHTMLAttributes<HTMLImageElement> & {
  readonly src: string
  readonly width: number
  readonly height: number
}

/**
 * An image from a remote service in a frame that holds a local picture beneath it: the
 * stylesheet paints that picture as the frame's background (inlined, so it needs no request),
 * and a remote picture that fails to load is hidden (`data-fallback`), its broken-image mark
 * with it, so the local one shows. Nothing new is painted when the app takes over the page,
 * which would count as a late largest paint. An image of a server-rendered page that failed
 * before the app ran (its `error` event long gone) is found by looking once, on mount.
 */
export function RemoteImage({ src, alt = '', ...rest }: RemoteImageProps) {
  const [failed, setFailed] = useState(false)
  const image = useRef<HTMLImageElement>(null)
  useEffect(() => {
    const element = image.current
    if (element !== null && element.complete && element.naturalWidth === 0) setFailed(true)
  }, [])
  return (
    <span className="remote-image">
      <img
        {...rest}
        ref={image}
        alt={alt}
        src={src}
        data-fallback={failed ? '' : undefined}
        onError={() => setFailed(true)}
        decoding="async"
      />
    </span>
  )
}
