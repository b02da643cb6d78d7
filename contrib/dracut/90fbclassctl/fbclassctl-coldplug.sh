#!/bin/sh
# dracut pre-trigger hook (sourced): nodes and links for the framebuffers,
# display drivers loaded for devices without one.
if command -v fbclassctl >/dev/null; then
	fbclassctl coldplug --load-modules --settle 3 ||
		warn "fbclassctl: coldplug failed; continuing"
fi
