# The bench checks a scenario shares (bench.sh, kms-drivers.sh): is auto,
# in a `bench -J` run on the guest's real drivers, as fast as the best
# strategy of each op?  Sourced by the scenario, after guest-lib.sh.
# shellcheck shell=sh

# auto_over_best JSON: per op of the run in JSON, tab-separated: op, what
# auto ran, auto / the fastest other strategy, that strategy.
auto_over_best() {
	jq -r '.framebuffers[0].results | group_by(.op)[] |
		(map(select(.strategy != "auto")) | max_by(.bytes_per_second)) as $b |
		(map(select(.strategy == "auto"))[0]) as $a |
		select($a != null and $b != null) |
		[$a.op, $a.auto_strategy, ($a.bytes_per_second / $b.bytes_per_second * 100 | floor / 100),
		 $b.strategy] | @tsv' "$1"
}

# bench_path STRATEGY: what fb_bench_choose() chooses between: the node
# (write, read), a RAM shadow, or stores into the mapping (any kernel).
bench_path() {
	case $1 in
	write | read) echo node ;;
	shadow) echo shadow ;;
	*) echo mapping ;;
	esac
}

# auto_check NAME FB: auto against the fastest other strategy of each op
# in /tmp/bench.json; the table of ratios is printed.  What auto chooses
# per device is the path: the node, a shadow, or the mapping.  Which
# kernel stores into a mapping is the CPU's (make bench measures it on
# the host; TCG emulates SSE2 and AVX2 at costs no CPU has), so a kernel
# beating auto's on the same path is said, not failed.  Under TCG one
# timing slice of the same code can differ 3x, so an op whose best is on
# another path, with auto below 0.9x, is measured again with auto and
# that strategy alone (-S, -d 2: more time each), up to twice; below 0.9x
# in all three looks is a wrong choice, and fails.
auto_check() {
	auto_over_best /tmp/bench.json >/tmp/auto.tsv
	t_diag "$1: op, auto ran, auto/best, best"
	t_diag_stdin </tmp/auto.tsv
	t_is "$(jq -r '[.framebuffers[0].results[].op] | unique | length' /tmp/bench.json)" \
		"$(jq -r '[.framebuffers[0].results[] | select(.strategy == "auto") | .op] | length' \
			/tmp/bench.json)" "$1: auto measured in every op"
	# the ops whose best is on another path, and those strategies
	_ops=
	_others=
	while IFS="$(printf '\t')" read -r _op _ran _r _best; do
		awk -v r="$_r" 'BEGIN { exit !(r < 0.9) }' || continue
		if [ "$(bench_path "$_ran")" = "$(bench_path "$_best")" ]; then
			t_diag "$1: $_op: auto's $_ran at ${_r}x of $_best, the same path ($(bench_path "$_best"))"
			continue
		fi
		_ops="$_ops $_op"
		case ",$_others," in *",$_best,"*) ;; *) _others="$_others,$_best" ;; esac
	done </tmp/auto.tsv
	# twice more for the ops still below, auto and those strategies alone,
	# 2 s each: an op below 0.9x in all three looks is a wrong choice
	_wrong=
	for _look in 2 3; do
		[ -n "$_ops" ] || break
		fbclassctl bench -d 2 -J -S "auto$_others" "$2" >/tmp/again.json 2>/dev/null
		auto_over_best /tmp/again.json >/tmp/again.tsv
		t_diag "$1: look $_look, auto and ${_others#,} alone:"
		t_diag_stdin </tmp/again.tsv
		_still=
		_wrong=
		for _op in $_ops; do
			_again=$(awk -F'\t' -v op="$_op" '$1 == op { print $3 }' /tmp/again.tsv)
			awk -v r="${_again:-0}" 'BEGIN { exit !(r < 0.9) }' || continue
			_still="$_still $_op"
			_wrong="$_wrong$_op: ${_again:-no}x of the best in $_look looks; "
		done
		_ops=$_still
	done
	t_is "$_wrong" "" "$1: auto's path reaches 0.9x the best strategy of each op"
}
