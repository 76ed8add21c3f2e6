"""Reads `perf script -F period,ip,sym,dso` output and splits its CPU time by category, for the bench profiles.

A sample's period (CPU nanoseconds) goes to the first category, in the order given, that any frame of its
call chain belongs to; the rest is "other".
"""


def samples(lines):
    """Yields (period, [(symbol, dso), ...]) for each sample of `perf script` output."""
    period, frames = None, []
    for line in lines:
        text = line.strip()
        if not text:
            if period is not None:
                yield period, frames
            period, frames = None, []
        elif period is None:
            period = int(text.split()[0])
        else:
            parts = text.split(None, 1)
            rest = parts[1] if len(parts) > 1 else ""
            symbol, _, dso = rest.rpartition(" (")
            frames.append((symbol, dso.rstrip(")")))
    if period is not None:
        yield period, frames


def split(lines, categories):
    """CPU nanoseconds by category name (every name present, plus "other") for [(name, matches(sym, dso))]."""
    totals = {name: 0 for name, _ in categories}
    totals["other"] = 0
    for period, frames in samples(lines):
        name = next((name for name, matches in categories if any(matches(sym, dso) for sym, dso in frames)), "other")
        totals[name] += period
    return totals
