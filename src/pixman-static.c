/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pixman linked in (the static build): see pixman-backend.h. */
#include "pixman-backend.h"

const char fb_pixman_backend_name[] = "static";

int fb_pixman_load(__typeof__(pixman_fill) **fill, __typeof__(pixman_blt) **blt)
{
	*fill = pixman_fill;
	*blt = pixman_blt;
	return 0;
}
