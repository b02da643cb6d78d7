# kernel-hazards.awk: the oopses, BUGs and WARNINGs of a kernel log, each
# one excused by src/kernel-hazards.tab or not.  POSIX awk: it runs on the
# host (mawk, gawk) and in the guest (busybox awk) alike.
#
#   awk -v ver=6.1.192 -f kernel-hazards.awk TABLE LOG
#   awk -v ver=6.1.192 -v hazard=ID -f kernel-hazards.awk TABLE LOG
#
# ver is the kernel's upstream version (Debian's package version up to the
# '-').  An incident is a kernel report: from its first line ("cut here",
# WARNING:, BUG:, Oops, general protection fault, Kernel panic, Call
# Trace:) to its "---[ end trace" (or 60 lines).  It is excused only when
# a hazard whose range [kmin, kmax] holds ver has a regex that matches one
# of its lines; the "Kernel panic - not syncing: Fatal exception" that
# oops=panic makes of an excused oops goes with it.
#
# Output, one line per incident, tab-separated:
#   known   ID  EFFECT  LINE   excused; LINE is the one the regex matched
#   unknown -   -       LINE   not excused; LINE is its headline, then
#   ctx     -   -       LINE   up to 15 of its lines
#   near    ID  RANGE   LINE   (after an unknown one) it matches ID's regex,
#                              but ver is outside ID's range
# With hazard=ID, one more line at the end:
#   hazard  ID  in-range|out-of-range  matched|not-matched  RANGES  EFFECT  LINE
# where matched means some line of the log (not only an incident's: a
# spin's evidence is the task's stack the guest prints) matches ID's regex.
# Exit status: 2 for a bad table or ver, else 1 when an incident is not
# excused, else 0.

function vcmp(a, b,    x, y, i) {
	split(a, x, ".")
	split(b, y, ".")
	for (i = 1; i <= 3; i++) {
		if (x[i] + 0 < y[i] + 0)
			return -1
		if (x[i] + 0 > y[i] + 0)
			return 1
	}
	return 0
}

function isver(v) { return v ~ /^[0-9]+\.[0-9]+\.[0-9]+$/ }

function table_error(msg) {
	print "error\t-\t-\tkernel-hazards.tab:" FNR ": " msg
	bad = 2
}

BEGIN {
	start_re = "-+\\[ cut here \\]-+|WARNING: |BUG: |Oops|general protection fault|Kernel panic|Call Trace:"
	head_re = "WARNING: |BUG: |Oops|general protection fault|Kernel panic"
	end_re = "---\\[ end (trace|Kernel panic)"
	panic_re = "Kernel panic - not syncing: Fatal exception"
	if (!isver(ver)) {
		print "error\t-\t-\tkernel version '" ver "' is not MAJOR.MINOR.PATCH"
		bad = 2
	}
	nh = 0
	in_inc = 0
	last_known = ""
	worst = 0
}

# ---- the table (the first file) ----
FNR == NR {
	if ($0 ~ /^#/ || $0 ~ /^[ \t]*$/)
		next
	n = split($0, f, "\t")
	if (n != 9) {
		table_error(n " fields, want 9 (id kmin kmax drivers trigger effect regex seen description)")
		next
	}
	if (!isver(f[2]) || !isver(f[3]) || vcmp(f[2], f[3]) > 0) {
		table_error("range '" f[2] "'..'" f[3] "' is not two MAJOR.MINOR.PATCH versions, lowest first")
		next
	}
	if (f[6] !~ /^(oops|warning|spin|hang|conflict)$/) {
		table_error("effect '" f[6] "' is not oops, warning, spin, hang or conflict")
		next
	}
	if (f[1] !~ /^[a-z0-9-]+$/)
		table_error("id '" f[1] "' is not [a-z0-9-]+")
	# an id may have several lines, one per range (a kernel series); not overlapping
	for (i = 1; i <= nh; i++)
		if (hid[i] == f[1] && vcmp(f[2], hmax[i]) <= 0 && vcmp(hmin[i], f[3]) <= 0)
			table_error("id '" f[1] "': range " f[2] ".." f[3] " overlaps its line with " hmin[i] ".." hmax[i])
	nh++
	hid[nh] = f[1]
	hmin[nh] = f[2]
	hmax[nh] = f[3]
	heff[nh] = f[6]
	hre[nh] = f[7]
	hin[nh] = isver(ver) && vcmp(f[2], ver) <= 0 && vcmp(ver, f[3]) <= 0
	if (hazard == f[1]) {
		if (!want || hin[nh])
			want = nh # the line whose range holds ver, else the first
		ranges = ranges (ranges == "" ? "" : ", ") f[2] ".." f[3]
	}
	next
}

# ---- the log ----
function close_incident(    i, j, hit) {
	in_inc = 0
	hit = 0
	for (i = 1; i <= nh && !hit; i++) {
		if (!hin[i])
			continue
		for (j = 1; j <= nl; j++)
			if (inc[j] ~ hre[i]) {
				hit = i
				break
			}
	}
	if (!hit && last_known != "" && inc[1] ~ panic_re) {
		print "known\t" last_known "\t(oops=panic)\t" inc[1]
		return
	}
	if (hit) {
		print "known\t" hid[hit] "\t" heff[hit] "\t" inc[j]
		last_known = hid[hit]
		return
	}
	last_known = ""
	worst = 1
	print "unknown\t-\t-\t" headline
	for (j = 1; j <= nl && j <= 15; j++)
		print "ctx\t-\t-\t" inc[j]
	for (i = 1; i <= nh; i++) {
		if (hin[i])
			continue
		for (j = 1; j <= nl; j++)
			if (inc[j] ~ hre[i]) {
				print "near\t" hid[i] "\t" hmin[i] ".." hmax[i] "\t" inc[j]
				break
			}
	}
}

{
	sub(/\r$/, "")
	if (want && !matched && $0 ~ hre[want]) {
		matched = 1
		matched_line = $0
	}
	# the guest's own lines (TAP, its diagnostics, which may quote the
	# kernel) are not the kernel's
	if ($0 ~ /^(# |ok [0-9]|not ok [0-9]|vm-hazard: )/)
		next
	if (!in_inc && $0 ~ start_re) {
		in_inc = 1
		nl = 0
		headline = ""
	}
	if (!in_inc)
		next
	inc[++nl] = $0
	if (headline == "" && $0 ~ head_re)
		headline = $0
	if ($0 ~ end_re || nl >= 60) {
		if (headline == "")
			headline = inc[1]
		close_incident()
	}
}

END {
	if (in_inc) {
		if (headline == "")
			headline = inc[1]
		close_incident()
	}
	if (hazard != "") {
		if (!want) {
			print "error\t" hazard "\t-\tno hazard '" hazard "' in the table"
			bad = 2
		} else
			print "hazard\t" hazard "\t" (hin[want] ? "in-range" : "out-of-range") "\t" \
				(matched ? "matched" : "not-matched") "\t" ranges "\t" heff[want] "\t" \
				matched_line
	}
	exit bad ? bad : worst
}
