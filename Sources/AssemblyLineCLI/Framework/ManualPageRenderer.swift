import AssemblyLine
import Foundation

/// The manual page, `assemblyline(1)` in roff (`man` macros), made from the same configurations as `--help`.
enum ManualPageRenderer {
    static func render(commands: [CommandConfiguration]) -> String {
        var lines = [
            ".TH ASSEMBLYLINE 1 \"\" \"assemblyline \(ClientIdentity.version)\" \"User Commands\"",
            ".SH NAME",
            "assemblyline \\- " + escape(HelpRenderer.overview),
            ".SH SYNOPSIS",
            ".B assemblyline",
            "\\fIsubcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]",
            ".SH COMMANDS",
        ]
        for configuration in commands {
            lines += [".SS \"\(configuration.commandName)\"", escape(configuration.abstract)]
            lines += [".PP", ".B " + escape(HelpRenderer.usage(for: configuration, commandPath: "assemblyline \(configuration.commandName)"))]
            if !configuration.discussion.isEmpty { lines += [".PP", escape(configuration.discussion)] }
            for argument in configuration.arguments {
                lines += [".TP", "\\fI<\(escape(argument.name))>\\fR", escape(argument.help)]
            }
            for option in configuration.options {
                lines += [".TP", "\\fB" + escape(HelpRenderer.label(of: option)) + "\\fR", escape(option.help)]
            }
        }
        lines += [
            ".SH EXIT STATUS",
            "0 done; 1 some files or shards failed; 2 interrupted; 3 canceled; 64 usage; 65 invalid manifest or input; 66 the inputs' "
                + "directory is missing; 69 endpoint or signer unreachable; 70 internal error; 73 output cannot be written; 74 ledger I/O; "
                + "75 a lock is held; 77 credentials refused; 78 a secret is missing.",
        ]
        lines += section("ENVIRONMENT", ManualPageSections.environment) + section("FILES", ManualPageSections.files)
            + section("EXAMPLES", ManualPageSections.examples)
        lines += [
            ".SH SEE ALSO",
            "The README and docs/ of the AssemblyLine sources; \\fBassemblyline\\fR \\fIsubcommand\\fR \\fB\\-\\-help\\fR.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A section of `.TP` paragraphs, each entry's term in bold.
    private static func section(_ name: String, _ entries: [ManualPageSections.Entry]) -> [String] {
        [".SH \(name)"] + entries.flatMap { [".TP", "\\fB" + escape($0.term) + "\\fR", escape($0.text)] }
    }

    /// Text as roff reads it literally: backslashes and hyphens escaped, other than ASCII as `\[uXXXX]`,
    /// no line starting with a control character.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
            default: escaped += "\\[u" + String(format: "%04X", scalar.value) + "]"
            }
        }
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
