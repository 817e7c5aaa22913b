/// A function in the data, called where its name is used in a template.
///
/// - `{{name}}` and `{{{name}}}` call it with ``LambdaInvocation/text`` `nil`.
/// - `{{#name}}…{{/name}}` calls it with the raw, unrendered section text.
/// - `{{^name}}…{{/name}}` never calls it: a lambda is truthy, so the inverted section is skipped.
///
/// The result decides what is inserted:
/// - ``MustacheValue/html(_:)`` is inserted verbatim: not parsed, not escaped.
/// - ``MustacheValue/string(_:)`` is rendered as a template in the current context (with the
///   section's delimiters, or the default ones for `{{name}}`); `{{name}}` escapes the result.
/// - Any other value is rendered as if it were the value of the name.
///
/// The function is called on every use; results are never cached.
public struct MustacheLambda: Sendable {
    let body: @Sendable (LambdaInvocation) throws -> MustacheValue

    /// Wraps `body`, which receives the invocation and returns what to insert.
    public init(_ body: @escaping @Sendable (LambdaInvocation) throws -> MustacheValue) {
        self.body = body
    }
}

/// What a lambda receives: the section text and a way to render text where the lambda stands.
public struct LambdaInvocation {
    /// The raw section text between `{{#name}}` and `{{/name}}`; `nil` for `{{name}}`.
    public let text: String?
    let renderer: LambdaRenderer

    /// Renders `template` in the current context with the current delimiters and returns the text.
    ///
    /// Partials and parents resolve in the same library. Missing partials are reported with the
    /// enclosing render. The indentation of enclosing standalone partials is not applied (the
    /// result is inserted as a whole). The unchanged ``text`` is compiled once, when a lambda first
    /// renders it, and reused by every later call, from any thread.
    public func render(_ template: String) throws -> String {
        try renderer.render(template)
    }
}
