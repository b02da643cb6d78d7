# apt for one Debian suite (bash, sourced by kernel.sh and fbfake/build.sh).
# apt_suite SUITE: sets the array apt_opts to the options that make
# apt-get and apt-cache read SUITE: none for the host's own release; for
# any other, a PRIVATE apt state in $cache/apt/SUITE (sources list, lists,
# cache, an empty dpkg status), so the host's apt configuration is never
# changed.  Its sources list names the host's own Debian mirrors, suite by
# suite, with the host's codename replaced (bookworm, bookworm-updates,
# bookworm-security -> trixie, trixie-updates, trixie-security), signed by
# debian-archive-keyring (Debian 12's carries Debian 13's keys; apt checks
# the Release signatures against it).  The lists are refreshed when older
# than VM_APT_MAX_AGE minutes (360).  Returns 77 with the reason on stderr.
# Needs: cache, and say (a message on stderr).
# shellcheck shell=bash disable=SC2154 # cache: set by the caller

apt_suite() {
	local suite=$1 host_suite adir srcs keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	apt_opts=()
	# shellcheck disable=SC1091
	host_suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	[ "$suite" != "$host_suite" ] || return 0
	command -v apt-get >/dev/null || { say "apt-get not found: cannot read the $suite suite"; return 77; }
	[ -f "$keyring" ] || { say "no $keyring (apt-get install debian-archive-keyring)"; return 77; }
	adir=$cache/apt/$suite
	mkdir -p "$adir/lists/partial" "$adir/cache/archives/partial"
	[ -e "$adir/status" ] || : >"$adir/status"
	apt_opts=(-o "Dir::Etc::sourcelist=$adir/sources.list" -o Dir::Etc::sourceparts=/dev/null
		-o "Dir::State::Lists=$adir/lists" -o "Dir::Cache=$adir/cache"
		-o "Dir::State::status=$adir/status"
		-o Dir::Etc::preferences=/dev/null -o Dir::Etc::preferencesparts=/dev/null)
	# shellcheck disable=SC2016 # apt's own $(FIELD) syntax
	srcs=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Identifier: Packages' 2>/dev/null |
		sort -u | awk -v h="$host_suite" -v s="$suite" -v k="$keyring" '
		$2 == h || $2 == h "-updates" || $2 == h "-security" {
			sub("^" h, s, $2); print "deb [signed-by=" k "] " $1 " " $2 " main" }')
	if [ -z "$srcs" ]; then
		say "the host's apt sources name no ${host_suite:-(unknown)} suite to derive $suite from"
		return 77
	fi
	# one update at a time (apt locks the lists; two tiers may start together)
	(
		flock 8
		if [ ! -f "$adir/sources.list" ] || [ "$(cat "$adir/sources.list")" != "$srcs" ]; then
			printf '%s\n' "$srcs" >"$adir/sources.list"
			rm -f "$adir/lists/"*Release # new sources: read them now
		fi
		[ -z "$(find "$adir/lists" -maxdepth 1 -name '*InRelease' -mmin "-${VM_APT_MAX_AGE:-360}" 2>/dev/null)" ] ||
			exit 0
		say "apt-get update of the private $suite state in $adir (the host's apt is not touched)"
		if ! timeout 300 apt-get "${apt_opts[@]}" -q update >"$adir/update.log" 2>&1; then
			grep -v unsandboxed "$adir/update.log" | sed 's/^/  /' >&2
			say "apt-get update for $suite failed; the lists already there, if any, are used"
		elif grep -E '^(W|E): ' "$adir/update.log" | grep -qv unsandboxed; then
			grep -E '^(W|E): ' "$adir/update.log" | grep -v unsandboxed | sed 's/^/  /' >&2
		fi
	) 8>"$adir/.lock"
}
