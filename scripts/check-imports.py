#!/usr/bin/env python3
"""Checks the module import rules of docs/architecture.md against the sources and Package.swift.

The `## Modules` table in docs/architecture.md says, per module, what it may import. This script
reads that table (nothing is hard-coded) and reports:

- a `Sources/<M>/**/*.swift` file importing a module that M's row does not list;
- a directory under Sources/ with .swift files but no row, and a row with no directory;
- a C module (`Sources/C*/module.modulemap`) imported by more than one Swift module
  (one adapter per C library);
- a Package.swift `.target`/`.executableTarget` whose dependencies its row does not allow;
- a file importing a module its module may import from a few named files only (NARROW_IMPORTS:
  the CLI reaches the SQLite ledger from its wiring, its version string and its error mapping alone);
- an `@_exported` import anywhere (it would hand a module's imports to every file that imports it);
- a read of the wall clock (`Date()`, `Date.now`, `Date(timeIntervalSinceNow:)`) in a module of
  CLOCKED_MODULES: the CLI reads the time of day from its one clock (`CommandContext.clock`);
- a task group whose child result is a tuple holding a `Result` (`withTaskGroup(of: (Int, Result<...>).self)`):
  Swift 6.3.1 -O mixes such results up (the keys of a shard's downloads came back wrong in release builds only,
  so no test saw it); a struct of the same fields is right;
- in Sources/ and Tests/, a `Pipe()` or a `Process` started by its own `run()` outside
  Sources/TestSupport/ChildLaunch.swift: a child must get close-on-exec pipes (`ChildLaunch.pipe()`) and start under
  the lock that makes them (`ChildLaunch.run(_:)`), or another child inherits its pipes and their readers wait for
  ever (a test process hung so).

Always allowed: Swift, Glibc, Musl, Darwin, Dispatch, Synchronization. Foundation (and
FoundationEssentials, treated the same) must be listed; "everything above" means every module in
the rows above plus Foundation.

Usage: scripts/check-imports.py [--root DIR] [--self-test]
Exit status: 0 when all is well, 1 on a violation, 2 when the table or a file cannot be read.
Standard library only.
"""

import argparse
import os
import re
import sys
import tempfile
from dataclasses import dataclass

ARCHITECTURE = os.path.join("docs", "architecture.md")
ALWAYS_ALLOWED = frozenset({"Swift", "Glibc", "Musl", "Darwin", "Dispatch", "Synchronization"})
FOUNDATION_ALIASES = frozenset({"Foundation", "FoundationEssentials"})
EVERYTHING_ABOVE = "everything above"
NOTHING = frozenset({"", "-", "—", "–", "none", "nothing"})
# (module, imported module) -> the only files of the module that may import it, relative to the root.
NARROW_IMPORTS = {
    ("AssemblyLineCLI", "SQLiteLedger"): frozenset({
        "Sources/AssemblyLineCLI/Wiring/RunWiring.swift",         # the wiring: the ledger store of every command
        "Sources/AssemblyLineCLI/Wiring/BuildDescription.swift",  # --version: SQLite's version
        "Sources/AssemblyLineCLI/Framework/ErrorReporter.swift",  # SQLiteError's exit status
    }),
}
# Modules that read the time of day from an injected clock only.
CLOCKED_MODULES = frozenset({"AssemblyLineCLI"})
WALL_CLOCK_RE = re.compile(r"\bDate\s*\(\s*(?:\)|timeIntervalSinceNow\s*:)|\bDate\s*\.\s*now\b")
TUPLE_RESULT_GROUP_RE = re.compile(r"TaskGroup\s*\(\s*of:\s*\([^)]*\bResult\s*<")
CHILD_LAUNCH = "Sources/TestSupport/ChildLaunch.swift"
RAW_PIPE_RE = re.compile(r"\bPipe\s*\(\s*\)")
PROCESS_RE = re.compile(r"\b(?:let|var)\s+(\w+)\s*(?::\s*Process\s*)?=\s*Process\s*\(\s*\)")
EXPORTED_RE = re.compile(r"@_exported\s+(?:\w+\s+)*import\s+(?:(?:struct|class|enum|protocol|typealias|func|let|var)\s+)?`?([A-Za-z_]\w*)")


class SetupError(Exception):
    """The table or a file could not be read or understood (exit status 2)."""


@dataclass(frozen=True)
class Violation:
    kind: str       # "import", "no-row", "no-directory", "shared-c-module", "package", "narrow-import", "exported-import", …
    module: str     # the module the violation is about
    other: str      # the imported / depended-on module, or "" when none
    message: str    # the full line to print

    def key(self):
        return (self.kind, self.module, self.other)


@dataclass
class Row:
    module: str
    allowed: frozenset
    line: int


# ---------------------------------------------------------------------------------------------
# Swift lexing: blank out comments (and, optionally, string contents), keeping line numbers.

def blank_swift(text, keep_strings=False):
    """Returns `text` with comments (and string contents unless keep_strings) replaced by spaces.

    Handles `//`, nested `/* */`, "..." and \"\"\"...\"\"\" strings, raw strings (#"..."#) and
    interpolations (\\( ... )) inside strings. Newlines are always kept.
    """
    out = []
    n = len(text)
    i = 0
    # Stack of states: ("code", paren_depth, is_interpolation) or ("string", hashes, multiline).
    stack = [("code", 0, False)]

    def blank(segment):
        return "".join("\n" if c == "\n" else " " for c in segment)

    while i < n:
        state = stack[-1]
        c = text[i]
        if state[0] == "code":
            if text.startswith("//", i):
                j = text.find("\n", i)
                j = n if j < 0 else j
                out.append(blank(text[i:j]))
                i = j
                continue
            if text.startswith("/*", i):
                depth, j = 1, i + 2
                while j < n and depth:
                    if text.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                    else:
                        j += 1
                out.append(blank(text[i:j]))
                i = j
                continue
            m = re.compile(r'(#*)("""|")').match(text, i)
            if m and (m.group(1) or c == '"'):
                hashes = len(m.group(1))
                multiline = m.group(2) == '"""'
                out.append(m.group(0))
                i = m.end()
                stack.append(("string", hashes, multiline))
                continue
            if c == "(":
                stack[-1] = ("code", state[1] + 1, state[2])
            elif c == ")":
                if state[2] and state[1] == 0:
                    stack.pop()  # end of an interpolation, back in the string
                    out.append(c)
                    i += 1
                    continue
                stack[-1] = ("code", max(0, state[1] - 1), state[2])
            out.append(c)
            i += 1
            continue

        # Inside a string literal.
        _, hashes, multiline = state
        close = ('"""' if multiline else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        if text.startswith(close, i):
            out.append(close)
            i += len(close)
            stack.pop()
            continue
        if text.startswith(escape, i):
            j = i + len(escape)
            if j < n and text[j] == "(":
                out.append(text[i:j + 1])
                i = j + 1
                stack.append(("code", 0, True))
                continue
            seg = text[i:j + 1]
            out.append(seg if keep_strings else blank(seg))
            i = j + 1
            continue
        if c == "\n" and not multiline:
            stack.pop()  # unterminated single-line string: recover at the end of the line
            out.append(c)
            i += 1
            continue
        out.append(c if keep_strings or c == "\n" else " ")
        i += 1
    return "".join(out)


IMPORT_RE = re.compile(
    r"(?:^|;)\s*"
    r"(?:(?:@\w+(?:\([^)]*\))?|public|package|internal|fileprivate|private|open)\s+)*"
    r"import\s+"
    r"(?:(?:struct|class|enum|protocol|typealias|func|let|var)\s+)?"
    r"`?([A-Za-z_]\w*)`?"
)


def imports_in(text):
    """Yields (line number, imported module) for every import statement in Swift source `text`."""
    for number, line in enumerate(blank_swift(text).split("\n"), start=1):
        for m in IMPORT_RE.finditer(line):
            yield number, m.group(1)


# ---------------------------------------------------------------------------------------------
# docs/architecture.md

def split_cells(line):
    """Splits a markdown table row into cells, honouring `code spans` and \\| escapes."""
    cells, cell, in_code, i = [], [], False, 0
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s) and s[i + 1] == "|":
            cell.append("|")
            i += 2
            continue
        if c == "`":
            in_code = not in_code
        if c == "|" and not in_code:
            cells.append("".join(cell).strip())
            cell = []
        else:
            cell.append(c)
        i += 1
    cells.append("".join(cell).strip())
    return cells


def parse_table(path):
    """Returns the rows of the `## Modules` table, in order, with each row's allowed imports."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as e:
        raise SetupError(f"{path}: cannot read: {e.strerror}")

    start = next((i for i, l in enumerate(lines) if re.match(r"^##\s+Modules\s*$", l)), None)
    if start is None:
        raise SetupError(f"{path}: no '## Modules' heading")

    header = module_col = imports_col = None
    rows = []
    for index in range(start + 1, len(lines)):
        line = lines[index]
        if re.match(r"^#{1,2}\s", line):
            break
        if not line.strip().startswith("|"):
            if header is not None:
                break  # the table ended
            continue
        cells = split_cells(line)
        if header is None:
            header = [c.strip("`* ").lower() for c in cells]
            if "module" not in header or "may import" not in header:
                raise SetupError(f"{path}:{index + 1}: the Modules table needs 'module' and "
                                 f"'may import' columns, found: {' | '.join(cells)}")
            module_col, imports_col = header.index("module"), header.index("may import")
            continue
        if all(re.fullmatch(r":?-+:?", c) for c in cells if c):
            continue  # the | --- | separator
        if len(cells) <= max(module_col, imports_col):
            raise SetupError(f"{path}:{index + 1}: table row has {len(cells)} cells, "
                             f"expected {len(header)}")
        name = cells[module_col].replace("`", "").strip()
        if not re.fullmatch(r"[A-Za-z_][\w-]*", name):
            raise SetupError(f"{path}:{index + 1}: cannot read a module name from {cells[module_col]!r}")
        allowed = set()
        for part in cells[imports_col].replace("`", "").split(","):
            part = " ".join(part.split())
            if part.lower() in NOTHING:
                continue
            if part.lower() == EVERYTHING_ABOVE:
                allowed.update(r.module for r in rows)
                allowed.add("Foundation")
                continue
            if not re.fullmatch(r"[A-Za-z_]\w*", part):
                raise SetupError(f"{path}:{index + 1}: cannot read {part!r} in {name}'s "
                                 f"'may import' cell as a module name")
            allowed.add(part)
        if any(r.module == name for r in rows):
            raise SetupError(f"{path}:{index + 1}: module {name} has two rows")
        rows.append(Row(name, frozenset(allowed), index + 1))
    if header is None:
        raise SetupError(f"{path}: no table under '## Modules'")
    return rows


def allows(row, module):
    if module in ALWAYS_ALLOWED or module in row.allowed:
        return True
    return module in FOUNDATION_ALIASES and bool(FOUNDATION_ALIASES & row.allowed)


def allowed_text(row):
    return ", ".join(sorted(row.allowed)) or "nothing"


# ---------------------------------------------------------------------------------------------
# Package.swift

def matching(text, open_index):
    """Index just past the bracket matching the one at open_index (text has strings intact,
    comments blanked; brackets inside strings are skipped)."""
    pairs = {"(": ")", "[": "]"}
    stack, i, in_string = [], open_index, False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in pairs:
            stack.append(pairs[c])
        elif stack and c == stack[-1]:
            stack.pop()
            if not stack:
                return i + 1
        i += 1
    return len(text)


def package_targets(text):
    """Yields (line, name, path or None, [(line, dependency)]) per .target / .executableTarget."""
    code = blank_swift(text, keep_strings=True)
    for m in re.finditer(r"\.(?:target|executableTarget)\s*\(", code):
        args = code[m.end() - 1:matching(code, m.end() - 1)]
        name = re.search(r'\bname\s*:\s*"([^"]*)"', args)
        if not name:
            continue
        path = re.search(r'\bpath\s*:\s*"([^"]*)"', args)
        deps = []
        d = re.search(r"\bdependencies\s*:\s*\[", args)
        if d:
            begin = m.end() - 1 + d.end() - 1
            body = code[begin:matching(code, begin)]
            # `.product(name: "X", package: "P")`: the module is X, the package name is not one.
            body_scan = re.sub(r'\bpackage\s*:\s*"[^"]*"', lambda s: " " * len(s.group(0)), body)
            for s in re.finditer(r'"([^"]*)"', body_scan):
                deps.append((code.count("\n", 0, begin + s.start()) + 1, s.group(1)))
        yield (code.count("\n", 0, m.start()) + 1, name.group(1),
               path.group(1) if path else None, deps)


# ---------------------------------------------------------------------------------------------
# The check

def swift_files(directory):
    found = []
    for base, dirs, files in os.walk(directory):
        dirs.sort()
        found.extend(os.path.join(base, f) for f in sorted(files) if f.endswith(".swift"))
    return found


def check(root, narrow=NARROW_IMPORTS, clocked=CLOCKED_MODULES):
    """Returns (violations, summary counts) for the tree at root; `narrow` and `clocked` as NARROW_IMPORTS and CLOCKED_MODULES."""
    doc = os.path.join(root, ARCHITECTURE)
    rows = parse_table(doc)
    by_name = {r.module: r for r in rows}
    sources = os.path.join(root, "Sources")
    if not os.path.isdir(sources):
        raise SetupError(f"{sources}: no such directory")

    directories = sorted(d for d in os.listdir(sources) if os.path.isdir(os.path.join(sources, d)))
    c_modules = {d for d in directories
                 if d.startswith("C") and os.path.isfile(os.path.join(sources, d, "module.modulemap"))}
    swift_modules = {d: swift_files(os.path.join(sources, d)) for d in directories}
    swift_modules = {d: files for d, files in swift_modules.items() if files}

    violations = []
    counts = {"files": 0, "imports": 0}
    c_importers = {}  # C module -> {Swift module -> first "path:line"}

    for row in rows:
        if row.module not in directories:
            violations.append(Violation(
                "no-directory", row.module, "",
                f"{ARCHITECTURE}:{row.line}: the Modules table has a row for {row.module}, "
                f"but there is no directory Sources/{row.module}/"))

    for module, files in swift_modules.items():
        row = by_name.get(module)
        if row is None:
            violations.append(Violation(
                "no-row", module, "",
                f"Sources/{module}/: holds .swift files but has no row in the Modules table "
                f"of {ARCHITECTURE}"))
        for path in files:
            counts["files"] += 1
            relative = os.path.relpath(path, root)
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            except (OSError, UnicodeDecodeError) as e:
                raise SetupError(f"{relative}: cannot read: {e}")
            for number, code in enumerate(blank_swift(text).split("\n"), start=1):
                if module in clocked and WALL_CLOCK_RE.search(code):
                    violations.append(Violation(
                        "wall-clock", module, "Date",
                        f"{relative}:{number}: module {module} reads the wall clock; take the time from its clock"))
                if TUPLE_RESULT_GROUP_RE.search(code):
                    violations.append(Violation(
                        "tuple-result-group", module, "Result",
                        f"{relative}:{number}: a task group's child result is a tuple holding a Result, which Swift 6.3.1 -O "
                        f"mixes up; make it a struct"))
                for m in EXPORTED_RE.finditer(code):
                    violations.append(Violation(
                        "exported-import", module, m.group(1),
                        f"{relative}:{number}: module {module} re-exports {m.group(1)} with @_exported; "
                        f"import it where it is used"))
            for line, imported in imports_in(text):
                counts["imports"] += 1
                only = narrow.get((module, imported))
                if only is not None and relative.replace(os.sep, "/") not in only:
                    violations.append(Violation(
                        "narrow-import", module, imported,
                        f"{relative}:{line}: module {module} imports {imported} from {len(only)} files only "
                        f"({', '.join(sorted(only))}): reach it through a port of the domain"))
                if imported in c_modules:
                    c_importers.setdefault(imported, {}).setdefault(module, f"{relative}:{line}")
                if row is not None and not allows(row, imported):
                    violations.append(Violation(
                        "import", module, imported,
                        f"{relative}:{line}: module {module} imports {imported}, which "
                        f"{ARCHITECTURE} does not allow (allowed: {allowed_text(row)})"))

    for c_module in sorted(c_importers):
        importers = c_importers[c_module]
        if len(importers) > 1:
            names = sorted(importers)
            where = ", ".join(f"{m} ({importers[m]})" for m in names)
            violations.append(Violation(
                "shared-c-module", c_module, ",".join(names),
                f"Sources/{c_module}/: C module {c_module} is imported by {len(names)} Swift modules, "
                f"{' and '.join(names)}; the rule is one adapter per C library: {where}"))

    package = os.path.join(root, "Package.swift")
    counts["targets"] = 0
    if os.path.isfile(package):
        with open(package, encoding="utf-8") as f:
            manifest = f.read()
        for line, name, path, deps in package_targets(manifest):
            if path is not None and (path == "bench" or path.startswith("bench/")):
                continue
            if name not in directories:
                continue
            row = by_name.get(name)
            if row is None:
                continue  # a C target without Swift files, or reported above as having no row
            counts["targets"] += 1
            for dep_line, dep in deps:
                if not allows(row, dep):
                    violations.append(Violation(
                        "package", name, dep,
                        f"Package.swift:{dep_line}: target {name} depends on {dep}, which "
                        f"{ARCHITECTURE} does not allow (allowed: {allowed_text(row)})"))

    violations.extend(child_launch_violations(root))
    counts["modules"] = len(swift_modules)
    counts["rows"] = len(rows)
    counts["c_modules"] = len(c_modules)
    return violations, counts


def child_launch_violations(root):
    """The pipes made and the processes started outside ChildLaunch, in Sources/ and Tests/."""
    violations = []
    for top in ("Sources", "Tests"):
        for path in swift_files(os.path.join(root, top)):
            relative = os.path.relpath(path, root).replace(os.sep, "/")
            if relative == CHILD_LAUNCH:
                continue
            module = relative.split("/")[1]
            with open(path, encoding="utf-8") as f:
                code = blank_swift(f.read())
            names = set(PROCESS_RE.findall(code))
            started = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(names))) + r")\s*\.\s*run\s*\(\s*\)") if names else None
            for number, line in enumerate(code.split("\n"), start=1):
                if RAW_PIPE_RE.search(line):
                    violations.append(Violation(
                        "raw-pipe", module, "Pipe",
                        f"{relative}:{number}: a Pipe() any child may inherit; make it with ChildLaunch.pipe()"))
                if started is not None and started.search(line):
                    violations.append(Violation(
                        "unlocked-child", module, "Process",
                        f"{relative}:{number}: a Process started by its own run(); start it with ChildLaunch.run(_:)"))
    return violations


def run(root):
    try:
        violations, counts = check(root)
    except SetupError as e:
        print(f"check-imports: {e}", file=sys.stderr)
        return 2
    for v in violations:
        print(v.message, file=sys.stderr)
    if violations:
        print(f"check-imports: {len(violations)} violation(s) of the rules in {ARCHITECTURE}",
              file=sys.stderr)
        return 1
    print(f"check-imports: ok: {counts['imports']} imports in {counts['files']} files of "
          f"{counts['modules']} modules, {counts['targets']} Package.swift targets and "
          f"{counts['c_modules']} C modules agree with {ARCHITECTURE}")
    return 0


# ---------------------------------------------------------------------------------------------
# --self-test

SELF_TEST_DOC = """# Architecture

Intro text | with a pipe that is not a table.

## Modules

| module | what it holds | may import |
| --- | --- | --- |
| `Base` | the base, `A | B` in a code span | Foundation |
| ` Middle ` | the middle | `Base`,  CLib |
| `Other` | wants CLib too | Base, CLib |
| `Top` | the top | everything above |
| `Lonely` | imports nothing | — |
| `Ghost` | has no directory | Base |

Rules: not part of the table.

## Next section

| module | what it holds | may import |
| --- | --- | --- |
| `NotAModule` | a later table is ignored | Foundation |
"""

SELF_TEST_FILES = {
    "Sources/Base/Ok.swift": (
        "#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n#endif\n"
        "import Foundation\nlet s = \"/* not a comment\"\nimport Dispatch\n"),
    "Sources/Base/Nested/Bad.swift": (
        "import Foundation\n"
        "// import Top\n"
        "/// import Top\n"
        "/* import Top\n   import Top */\n"
        "/* outer /* inner */ import Top */\n"
        "let text = \"\"\"\nimport Top\n\"\"\"\n"
        "let raw = #\"a \\(x) \"import Top\" \"#\n"
        "let interpolated = \"\\(f(\"x)\")) import Top\"\n"
        "import Middle // forbidden: Base may not import Middle\n"),
    "Sources/Middle/M.swift": (
        "@testable import Base\nimport struct Base.Thing\npackage import Base\n"
        "#if canImport(CLib)\nimport CLib\n#endif\n"),
    "Sources/Other/O.swift": "@preconcurrency import CLib\ninternal import Base\n",
    "Sources/Top/T.swift": (
        "import Middle\n@preconcurrency import Base\npublic import FoundationEssentials\n"
        "import Other; import Middle\nimport CLib\n"),
    "Sources/Top/U.swift": "import Middle\n@_exported import Base\nlet now = Date()\n// Date.now in a comment\n"
                           "let g = await withTaskGroup(of: (Int, Result<Int, any Error>).self) { _ in 0 }\n"
                           "// withTaskGroup(of: (Int, Result<Int, E>).self) in a comment\n",
    "Sources/Lonely/L.swift": "import Swift\nimport Synchronization\nimport XCTest\n",
    "Tests/TopTests/Child.swift": ("let output = Pipe()\nlet child = Process()\ntry child.run()\n"
                                   "// Pipe() and child.run() in a comment\nlet other = \"x.run()\"\n"),
    "Sources/Stray/S.swift": "import Foundation\n",
    "Sources/CLib/module.modulemap": "module CLib { header \"shim.h\" }\n",
    "Sources/CEmpty/empty.c": "int empty;\n",
    "Package.swift": (
        "// swift-tools-version: 6.0\nimport PackageDescription\n"
        "let package = Package(name: \"Fake\", targets: [\n"
        "    .target(name: \"Base\", dependencies: [\"Middle\"]),\n"
        "    // .target(name: \"Base\", dependencies: [\"Ghost\"]),\n"
        "    .target(\n        name: \"Middle\",\n        dependencies: [\n"
        "            \"Base\", \"CLib\",\n        ]\n    ),\n"
        "    .target(name: \"Other\", dependencies: [\"Base\", .product(name: \"CLib\", package: \"clib\")]),\n"
        "    .target(name: \"Top\", dependencies: [\"Middle\", \"Other\", .target(name: \"Base\")]),\n"
        "    .target(name: \"Lonely\", dependencies: [\"Top\"]),\n"
        "    .target(name: \"CEmpty\"),\n"
        "    .executableTarget(name: \"bench-tool\", dependencies: [\"Top\"], path: \"bench/Tool\"),\n"
        "    .testTarget(name: \"BaseTests\", dependencies: [\"Base\", \"Top\"]),\n"
        "])\n"),
}

SELF_TEST_EXPECTED = {
    ("import", "Base", "Middle"),
    ("import", "Top", "CLib"),
    ("import", "Lonely", "XCTest"),
    ("no-row", "Stray", ""),
    ("no-directory", "Ghost", ""),
    ("shared-c-module", "CLib", "Middle,Other,Top"),
    ("package", "Base", "Middle"),
    ("package", "Lonely", "Top"),
    ("narrow-import", "Top", "Middle"),
    ("exported-import", "Top", "Base"),
    ("wall-clock", "Top", "Date"),
    ("tuple-result-group", "Top", "Result"),
    ("raw-pipe", "TopTests", "Pipe"),
    ("unlocked-child", "TopTests", "Process"),
}

SELF_TEST_NARROW = {("Top", "Middle"): frozenset({"Sources/Top/T.swift"})}


def write_tree(root, files):
    for relative, content in files.items():
        path = os.path.join(root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(content)


def self_test():
    try:
        failures = self_test_failures()
    except SetupError as e:
        failures = [f"the fake tree could not be checked: {e}"]
    if failures:
        for f in failures:
            print(f"self-test: FAIL: {f}", file=sys.stderr)
        return 1
    print(f"self-test: ok ({len(SELF_TEST_EXPECTED)} expected violations found, clean tree passes)")
    return 0


def self_test_failures():
    failures = []

    def expect(condition, what):
        if not condition:
            failures.append(what)

    with tempfile.TemporaryDirectory(prefix="check-imports-") as root:
        write_tree(root, {"docs/architecture.md": SELF_TEST_DOC, **SELF_TEST_FILES})
        rows = {r.module: r for r in parse_table(os.path.join(root, ARCHITECTURE))}
        expect(list(rows) == ["Base", "Middle", "Other", "Top", "Lonely", "Ghost"],
               f"table rows: {list(rows)}")
        expect(rows["Middle"].allowed == {"Base", "CLib"}, f"Middle allows {rows['Middle'].allowed}")
        expect(rows["Top"].allowed == {"Base", "Middle", "Other", "Foundation"},
               f"'everything above' gave {sorted(rows['Top'].allowed)}")
        expect(rows["Lonely"].allowed == set(), f"Lonely allows {rows['Lonely'].allowed}")

        violations, _ = check(root, narrow=SELF_TEST_NARROW, clocked={"Top"})
        got = {v.key() for v in violations}
        for key in sorted(SELF_TEST_EXPECTED - got):
            failures.append(f"expected violation not reported: {key}")
        for v in violations:
            if v.key() not in SELF_TEST_EXPECTED:
                failures.append(f"unexpected violation: {v.message}")
        bad = [v for v in violations if v.key() == ("import", "Base", "Middle")]
        expect(len(bad) == 1 and bad[0].message.startswith(
            os.path.join("Sources", "Base", "Nested", "Bad.swift") + ":12: module Base imports Middle"),
            f"Bad.swift message: {[v.message for v in bad]}")
        expect(not any(v.other == "Top" and v.module == "Base" for v in violations),
               "an import in a comment or string was counted")

        # The same tree with every violation fixed must pass.
        clean = dict(SELF_TEST_FILES)
        clean["Sources/Base/Nested/Bad.swift"] = "import Foundation\n// import Middle\n"
        clean["Sources/Top/T.swift"] = "import Middle\nimport Base\n"
        clean["Sources/Other/O.swift"] = "import Base\n"
        clean["Sources/Lonely/L.swift"] = "import Swift\n"
        clean["Sources/Top/U.swift"] = "import Base\n"
        clean["Tests/TopTests/Child.swift"] = ("let output = ChildLaunch.pipe()\nlet child = Process()\n"
                                               "try ChildLaunch.run(child)\nlet task = harness.run()\n")
        del clean["Sources/Stray/S.swift"]
        clean["Package.swift"] = clean["Package.swift"].replace(
            '.target(name: "Base", dependencies: ["Middle"])', '.target(name: "Base")').replace(
            '.target(name: "Lonely", dependencies: ["Top"])', '.target(name: "Lonely")')
        doc = SELF_TEST_DOC.replace("| `Ghost` | has no directory | Base |\n", "")
        with tempfile.TemporaryDirectory(prefix="check-imports-clean-") as clean_root:
            write_tree(clean_root, {"docs/architecture.md": doc, **clean})
            clean_violations, _ = check(clean_root, narrow=SELF_TEST_NARROW, clocked={"Top"})
            for v in clean_violations:
                failures.append(f"clean tree: unexpected violation: {v.message}")

        # A table that cannot be read is an error, not a pass.
        with tempfile.TemporaryDirectory(prefix="check-imports-broken-") as broken:
            write_tree(broken, {"docs/architecture.md": "# Architecture\n\nno table\n",
                                "Sources/A/A.swift": "import Foundation\n"})
            try:
                check(broken)
                failures.append("a doc without a Modules table was accepted")
            except SetupError:
                pass
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="the package root (default: the directory above scripts/)")
    parser.add_argument("--self-test", action="store_true", help="run the built-in cases and exit")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    return run(args.root)


if __name__ == "__main__":
    sys.exit(main())
