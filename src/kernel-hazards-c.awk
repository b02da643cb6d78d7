# kernel-hazards-c.awk: src/kernel-hazards.tab as C initialisers, one
# struct kernel_hazard a line, for src/kernel-hazards.c (a build step:
# the table stays the one place the hazards are written down).
#   awk -f kernel-hazards-c.awk kernel-hazards.tab > kernel-hazards-table.h
BEGIN { FS = "\t"; n = 0 }
# A C string literal of s, char by char: gsub's replacement rules for a
# backslash differ between awks.
function cstr(s,    out, c, i) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\" || c == "\"")
			out = out "\\"
		out = out c
	}
	return "\"" out "\""
}
/^#/ || /^[ \t]*$/ { next }
NF != 9 {
	printf("kernel-hazards.tab:%d: %d fields, not 9\n", NR, NF) > "/dev/stderr"
	bad = 1
	exit 1
}
{
	printf("{ %s, %s, %s, %s, %s, %s, %s, %s, %s },\n", cstr($1), cstr($2), cstr($3),
	       cstr($4), cstr($5), cstr($6), cstr($7), cstr($8), cstr($9))
	n++
}
END {
	if (!bad && n == 0) {
		print "kernel-hazards.tab: no hazard" > "/dev/stderr"
		exit 1
	}
}
