#!/bin/sh
# Writes the Swift file the EmbedFiles plugin adds to a target: EmbeddedFiles.text, each file's text
# by its name under Embedded/ ("Locales/en.json"), as Swift string literals with backslashes,
# quotes, tabs and line ends escaped. A shell script rather than a tool the package builds: a
# cross-compiling build (scripts/aarch64) passes its target's compiler flags to such a tool too,
# which then cannot be built for the host it runs on.
#
# usage: embed.sh OUTPUT NAME=PATH...
set -eu
output=$1
shift
{
    echo '// Written by the EmbedFiles plugin from the files under Embedded/: edit those, not this.'
    echo 'enum EmbeddedFiles {'
    echo '    /// Each file'"'"'s text, by its path under Embedded/.'
    echo '    static let text: [String: String] = ['
    [ $# -gt 0 ] || echo '        :'
    for pair in "$@"; do
        printf '        "%s": ' "${pair%%=*}"
        LC_ALL=C awk 'BEGIN { printf "\"" }
            { gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); gsub(/\t/, "\\t"); gsub(/\r/, "\\r"); printf "%s\\n", $0 }
            END { print "\"," }' "${pair#*=}"
    done
    echo '    ]'
    echo '}'
} > "$output.partial"
mv "$output.partial" "$output"
