# The benchmarks' statistics and verdicts (POSIX sh and awk; busybox has
# both), in one place so that the two views of the coldplug print one
# format: sourced by bench/coldplug-vs-mdev.sh on the host, and put in
# front of the VM bench's scenario by tests/vm/bench/run.sh.
# shellcheck shell=sh

# quartiles: numbers on stdin, one a line: "MEDIAN Q1 Q3", each between
# the two closest ranks (linear, as R's and numpy's default); "- - -" if none
quartiles() {
	sort -n | awk '{ v[NR] = $1 }
		function q(p,  h, i) {
			h = (NR - 1) * p + 1
			i = int(h)
			return i >= NR ? v[NR] : v[i] + (h - i) * (v[i + 1] - v[i])
		}
		END { if (NR == 0) print "- - -"; else printf "%.0f %.0f %.0f\n", q(0.5), q(0.25), q(0.75) }'
}

# median: numbers on stdin, one a line: the middle one (the lower of two)
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# ms_iqr "MEDIAN Q1 Q3" in microseconds: "12.34 ms [11.90 13.01]"
ms_iqr() {
	echo "$1" | awk '$1 == "-" { print "-"; next }
		{ printf "%.2f ms [%.2f %.2f]\n", $1 / 1e3, $2 / 1e3, $3 / 1e3 }'
}

# ratio A B: A/B with two decimals ("inf" when B is 0)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "inf"; else printf "%.2f\n", a / b }'; }

# goal_le VALUE MAX [UNIT]: "goal <= MAX: met" or "goal <= MAX: NOT met";
# a goal is printed, never asserted
goal_le() {
	awk -v v="$1" -v m="$2" -v u="${3:-}" 'BEGIN {
		printf "goal <= %s%s: %s\n", m, u, (v != "inf" && v + 0 <= m + 0) ? "met" : "NOT met" }'
}
