#!/bin/sh
# mkfixture.sh N [NAME]: print a umockdev tree with N framebuffers fb0..fbN-1.
# fb0 sits on PCI 0000:00:02.0 (bochs-drm); the others on platform vfb.K
# devices.  Every fb gets the id NAME (default "Virtual FB"), so the by-name
# collision rule (lowest minor wins) is exercised too.
set -eu
n=${1:?usage: mkfixture.sh N [NAME]}
name=${2:-Virtual FB}
cat <<EOT
P: /devices/pci0000:00/0000:00:02.0
E: SUBSYSTEM=pci
E: DRIVER=bochs-drm
E: MODALIAS=pci:v00001234d00001111sv00001AF4sd00001100bc03sc00i00
L: driver=../../../bus/pci/drivers/bochs-drm
A: modalias=pci:v00001234d00001111sv00001AF4sd00001100bc03sc00i00\n

P: /devices/pci0000:00/0000:00:02.0/graphics/fb0
E: SUBSYSTEM=graphics
E: MAJOR=29
E: MINOR=0
E: DEVNAME=fb0
A: dev=29:0\n
L: device=../../../0000:00:02.0
A: name=bochs-drmdrmfb\n
A: bits_per_pixel=32\n
A: virtual_size=1024,768\n
A: stride=4096\n

EOT
i=1
while [ "$i" -lt "$n" ]; do
	cat <<EOT
P: /devices/platform/vfb.$i
E: SUBSYSTEM=platform
E: DRIVER=vfb
E: MODALIAS=platform:vfb
L: driver=../../../bus/platform/drivers/vfb
A: modalias=platform:vfb\n

P: /devices/platform/vfb.$i/graphics/fb$i
E: SUBSYSTEM=graphics
E: MAJOR=29
E: MINOR=$i
E: DEVNAME=fb$i
A: dev=29:$i\n
L: device=../../../vfb.$i
A: name=$name\n
A: bits_per_pixel=8\n
A: virtual_size=640,480\n
A: stride=640\n

EOT
	i=$((i + 1))
done
