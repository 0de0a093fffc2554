/// A reference whose identity stands for a value that cannot be compared, such as a closure: two values made
/// separately are different, copies of one value are the same.
final class IdentityToken: Sendable, Hashable {
    init() {}

    static func == (lhs: IdentityToken, rhs: IdentityToken) -> Bool { lhs === rhs }

    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The identity of a replaceable part (loader, cache, coders) in a stage key: the same object for a class, and for
/// a value type a fresh identity (so requests that bring their own value-type part never share work).
struct PartIdentity: Hashable, Sendable {
    private let id: ObjectIdentifier
    /// Keeps the object alive while the key exists, so its identifier cannot be reused.
    private let owner: any Sendable

    init(_ part: any Sendable) {
        if type(of: part) is AnyClass {
            let object = part as AnyObject
            id = ObjectIdentifier(object)
            owner = part
        } else {
            let token = IdentityToken()
            id = ObjectIdentifier(token)
            owner = token
        }
    }

    static func == (lhs: PartIdentity, rhs: PartIdentity) -> Bool { lhs.id == rhs.id }

    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
