/// A value a template renders: JSON-like data, HTML that is already safe, or a lambda.
///
/// Truthiness (for `{{#name}}` and `{{^name}}`) follows the common JavaScript reading:
/// `null`, `false`, `0`, `""` and `[]` are falsey; every other value, including an empty
/// object and every lambda, is truthy.
public enum MustacheValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    /// HTML that storysite produced and escaped itself: `{{x}}` inserts it unescaped.
    case html(String)
    case array([MustacheValue])
    /// Named values; see ``MustacheObject``.
    case object(MustacheObject)
    /// A function called by `{{name}}` or `{{#name}}…{{/name}}`; see ``MustacheLambda``.
    case lambda(MustacheLambda)
    /// A value made when a template first reads it; see ``MustacheLazyValue``.
    case lazy(MustacheLazyValue)
}

extension MustacheValue {
    /// Whether a section over this value renders (and an inverted section does not).
    var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .number(let value): value != 0 && !value.isNaN
        case .string(let text), .html(let text): !text.isEmpty
        case .array(let items): !items.isEmpty
        case .object, .lambda: true
        case .lazy(let lazy): lazy.value.isTruthy
        }
    }
}

extension MustacheValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension MustacheValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

extension MustacheValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension MustacheValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension MustacheValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: MustacheValue...) { self = .array(elements) }
}

extension MustacheValue: ExpressibleByDictionaryLiteral {
    /// Builds an object; when a key repeats, the last value wins.
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .object(MustacheObject(pairs: elements))
    }
}
