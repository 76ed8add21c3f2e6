import ConfigFormat

/// The issues a config decoder reports, one line each (`FILE:LINE:COL: field: message`); empty when it accepts the text.
///
/// Any error other than ``ConfigError`` is thrown on, so that a test sees it.
package func configIssues(_ decode: () throws -> Void) throws -> [String] {
    do {
        try decode()
        return []
    } catch let error as ConfigError {
        return error.issues.map(\.description)
    }
}
