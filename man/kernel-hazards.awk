# kernel-hazards.awk: the KERNEL HAZARDS entries of fbclassctl(8), from
# src/kernel-hazards.tab (one .TP a hazard and range).  tests/man.sh checks
# that the page holds exactly this between its "hazards begin" and
# "hazards end" comments; `make man-hazards` writes it there.
BEGIN { FS = "\t" }
/^#/ || /^[ \t]*$/ { next }
function roff(s) {
	gsub(/\\/, "\\e", s)
	gsub(/-/, "\\-", s)
	if (substr(s, 1, 1) == "." || substr(s, 1, 1) == "'")
		s = "\\&" s
	return s
}
{
	print ".TP"
	printf(".BR %s \" (%s, Linux %s to %s)\"\n", roff($1), roff($4), $2, $3)
	print roff($9) "."
	printf("Trigger %s; the kernel's %s; seen on %s.\n", roff($5), $6, roff($8))
}
