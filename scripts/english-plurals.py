#!/usr/bin/env python3
"""Writes translations/strata_en.ts: the English plural forms of every numerus message.

Qt's tr("%n object(s)", nullptr, n) needs a catalogue to read "1 object" / "3 objects"; English
has no other translation, so this one holds only the numerus messages, with the contexts
`update_translations` gave them in strata_de.ts. Run it after `cmake --build <dir> --target
update_translations`:  python3 scripts/english-plurals.py
"""
import html
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = ROOT / "translations" / "strata_de.ts"
TARGET = ROOT / "translations" / "strata_en.ts"

# Where "(s)" does not make the singular and plural, or there is no "(s)" to expand.
OVERRIDES = {
    "Pending demand: %1 GPUs in %Ln queued jobs": (
        "Pending demand: %1 GPUs in %Ln queued job",
        "Pending demand: %1 GPUs in %Ln queued jobs",
    ),
    "the history store did not answer %n queries in time": (
        "the history store did not answer %n query in time",
        "the history store did not answer %n queries in time",
    ),
    "Delete these %n jobs; their running work stops": (
        "Delete this job; its running work stops",
        "Delete these %n jobs; their running work stops",
    ),
}


def forms(source):
    if source in OVERRIDES:
        return OVERRIDES[source]
    if "(s)" in source:
        return source.replace("(s)", ""), source.replace("(s)", "s")
    return source, source


def main():
    text = SOURCE.read_text(encoding="utf-8")
    out = ['<?xml version="1.0" encoding="utf-8"?>', "<!DOCTYPE TS>", '<TS version="2.1" language="en">']
    for context in re.finditer(r"<context>\s*<name>(.*?)</name>(.*?)</context>", text, re.S):
        messages = re.findall(r'<message numerus="yes">\s*<source>(.*?)</source>', context.group(2), re.S)
        if not messages:
            continue
        out += ["<context>", "    <name>%s</name>" % context.group(1)]
        for source in messages:
            one, many = forms(html.unescape(source))
            out += [
                '    <message numerus="yes">',
                "        <source>%s</source>" % source,
                "        <translation>",
                "            <numerusform>%s</numerusform>" % html.escape(one, quote=False),
                "            <numerusform>%s</numerusform>" % html.escape(many, quote=False),
                "        </translation>",
                "    </message>",
            ]
        out.append("</context>")
    out.append("</TS>")
    TARGET.write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
