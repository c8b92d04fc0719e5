# mk/help.awk — `make help`: one line a target, from the first `## name: text` line above it
# in the Makefile and mk/*.mk, in the order they are read. A target declared .PHONY without
# such a line is listed too, marked, so that none goes missing from the list.
/^## [a-z][a-z0-9-]*: / {
    name = substr($2, 1, length($2) - 1)
    if (!(name in doc)) { order[++n] = name; doc[name] = substr($0, length($2) + 5) }
    next
}
/^\.PHONY:/ {
    line = $0
    while (line ~ /\\$/ && (getline more) > 0) line = substr(line, 1, length(line) - 1) " " more
    m = split(line, words, /[ \t]+/)
    for (i = 2; i <= m; i++) if (words[i] != "") phony[words[i]] = 1
}
END {
    print "make TARGET — presentd's targets (details: the `##` lines in Makefile and mk/*.mk):"
    for (i = 1; i <= n; i++) printf "  %-20s %s\n", order[i], doc[order[i]]
    for (t in phony) if (!(t in doc)) printf "  %-20s (no ## line yet: add one above its rule)\n", t
}
