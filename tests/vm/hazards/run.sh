#!/bin/bash
# The catalogue of kernel hazards (make check): every tests/vm/hazards/*.sh
# on each kernel of VM_KERNELS, and on each package version the table's
# "seen" column names; see ../run.sh --hazards and ../README.md.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
exec bash "$(dirname "${BASH_SOURCE[0]}")/../run.sh" --hazards "$@"
