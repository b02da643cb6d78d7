# The KMS reader's answers and drm_info's in the same terms, for the
# scenarios that hold one to the other (kms.sh, kms-drivers.sh).
# shellcheck shell=sh

# ours FILE: the reader's ids and values in drm_info's terms, one line
ours() {
	jq -c '{crtcs: [.crtcs[] | {id, active, mode: (.mode | if . == null then null else
			{clock, hdisplay, hsync_start, hsync_end, htotal, vdisplay, vsync_start,
			 vsync_end, vtotal, flags, vrefresh} end)}],
		planes: [.planes[] | {id, crtc_id, fb_id,
			type: ({overlay: 0, primary: 1, cursor: 2}[.type]),
			crtc_x, crtc_y, crtc_w, crtc_h}],
		connectors: [.connectors[] | {id, status, crtc_id, link_status, dpms}],
		fbs: [.fbs[] | {id, width, height, format, modifier}] | sort_by(.id)}' "$1"
}

# theirs FILE [MINOR]: the same out of drm_info -j, for /dev/dri/cardMINOR
# (default 0)
theirs() {
	jq -c --arg card "/dev/dri/card${2:-0}" '.[$card] | {crtcs: [.crtcs[] | {id,
			active: (.properties.ACTIVE.value == 1),
			mode: (if .properties.ACTIVE.value == 1 then .mode |
				{clock, hdisplay, hsync_start, hsync_end, htotal, vdisplay,
				 vsync_start, vsync_end, vtotal, flags, vrefresh} else null end)}],
		planes: [.planes[] | {id, crtc_id, fb_id, type: .properties.type.value,
			crtc_x: .properties.CRTC_X.value, crtc_y: .properties.CRTC_Y.value,
			crtc_w: .properties.CRTC_W.value, crtc_h: .properties.CRTC_H.value}],
		connectors: [.connectors[] | {id, status, crtc_id: (.properties.CRTC_ID.value // 0),
			link_status: (.properties["link-status"].value // -1),
			dpms: (.properties.DPMS.value // -1)}],
		fbs: ([.planes[] | select(.fb != null) | .fb | {id, width, height, format, modifier}]
			| unique_by(.id))}' "$1"
}
