/// Something that shows an image: a view wrapper, a widget, a terminal cell, a test double. Off Apple platforms
/// this protocol stands in for SDWebImage's `UIImageView+WebCache` category.
///
/// Conform by implementing ``setImage(_:)``; the activity and progress hooks are optional. Then load with
/// ``setImage(with:placeholder:options:context:operationKey:manager:progress:completion:)``:
///
/// ```swift
/// @MainActor final class Cell: ImageTarget {
///     var image: Image?
///     func setImage(_ image: Image?) { self.image = image; redraw() }
/// }
/// cell.setImage(with: url, placeholder: spinnerImage)
/// ```
///
/// Every call happens on the main actor. For each load the target sees: the placeholder (unless
/// ``ImageOptions/delayPlaceholder``), ``imageLoadDidStart()``, any ``imageLoadProgress(_:)``, the image (unless
/// ``ImageOptions/avoidAutoSetImage``, or the placeholder again with ``ImageOptions/delayPlaceholder`` when the load
/// fails), then ``imageLoadDidFinish()``. Start and finish alternate strictly: a load that is replaced or cancelled
/// gets its ``imageLoadDidFinish()`` at that moment.
@MainActor
public protocol ImageTarget: AnyObject, Sendable {
    /// Shows `image`: a placeholder, a loaded image, or `nil` to clear.
    func setImage(_ image: Image?)

    /// A load began (show an activity indicator). Default: nothing.
    func imageLoadDidStart()

    /// Bytes of the current load arrived. Default: nothing.
    func imageLoadProgress(_ progress: ImageProgress)

    /// The current load ended: finished, failed, was cancelled or replaced (hide the indicator). Default: nothing.
    func imageLoadDidFinish()
}

extension ImageTarget {
    /// Does nothing.
    public func imageLoadDidStart() {}
    /// Does nothing.
    public func imageLoadProgress(_ progress: ImageProgress) {}
    /// Does nothing.
    public func imageLoadDidFinish() {}
}
