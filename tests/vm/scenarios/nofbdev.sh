# drm_kms_helper.fbdev_emulation=0 with bochs loaded: card0 and no
# framebuffer; doctor exits 1 and names the parameter in the class-empty
# finding; list --drm gives card0 with that REASON.
# shellcheck shell=sh disable=SC2034,SC2016,SC2154
QEMU_VGA=std
KCMDLINE="drm_kms_helper.fbdev_emulation=0"
MODULES="bochs"

scenario() {
	t_check "modprobe bochs" modprobe bochs
	t_check "card0 appears" sysfs_wait /sys/class/drm/card0-Virtual-1 10
	sleep 1
	t_is "$(cat /sys/module/drm_kms_helper/parameters/fbdev_emulation)" N "sysfs: fbdev_emulation is off"
	t_is "$(fb_count)" 0 "sysfs: no framebuffer"
	fbclassctl doctor -J >/tmp/doctor.json
	t_is "$?" 1 "doctor exits 1"
	jq -c '.findings[] | select(.verdict == "problem")' /tmp/doctor.json | t_diag_stdin
	t_check "doctor: a class-empty problem naming card0" \
		jq -e '.findings[] | select(.check == "class-empty" and .verdict == "problem" and (.summary | test("card0")))' /tmp/doctor.json
	t_check "doctor: its evidence names drm_kms_helper's fbdev_emulation" \
		jq -e '.findings[] | select(.check == "class-empty") | select(.evidence | any(test("drm_kms_helper.*fbdev_emulation")))' /tmp/doctor.json
	t_check "doctor: its fix is to boot without the parameter" \
		jq -e '.findings[] | select(.check == "class-empty") | select(.fix | any(test("drm_kms_helper.fbdev_emulation=0")))' /tmp/doctor.json
	fbclassctl list --drm -J >/tmp/list.json
	t_is "$(jq -c '.framebuffers | length' /tmp/list.json)" 0 "list --drm -J: no framebuffer"
	t_is "$(jq -c '.cards[] | [.name, ."maj:min", .kind, .driver, .reason]' /tmp/list.json)" \
		"[\"card0\",\"$(cat /sys/class/drm/card0/dev)\",\"drm\",\"$(basename "$(readlink -f /sys/class/drm/card0/device/driver)")\",\"drm_kms_helper.fbdev_emulation=0\"]" \
		"list --drm -J: card0 with its maj:min, driver and REASON"
	t_check "list --drm: a REASON column" sh -c \
		'fbclassctl list --drm | awk "NR == 1 && \$NF == \"REASON\" { h = 1 } NR == 2 && \$1 == \"card0\" && \$NF == \"drm_kms_helper.fbdev_emulation=0\" { r = 1 } END { exit !(h && r) }"'
	out_file /tmp/doctor.json doctor.json
	out_file /tmp/list.json list.json
}

host_check() {
	_bad=0
	for _doc in "doctor doctor.json" "list list.json"; do
		# shellcheck disable=SC2086
		if /usr/bin/python3 "$vm_here/../json/validate.py" "$vm_here/../json/fbclassctl.schema.json" $_doc; then
			echo "ok - ${_doc#* } validates against the schema (${_doc% *})"
		else
			echo "not ok - ${_doc#* } validates against the schema (${_doc% *})"
			_bad=1
		fi
	done
	return "$_bad"
}
