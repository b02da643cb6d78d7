#!/bin/bash
# Stands in for fbclassctl in the CLI and fixture tests under
# "make check-valgrind": any memory error or definite leak makes the
# command fail, and valgrind's report on stderr breaks the golden output.
exec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	--show-leak-kinds=definite "${FBCLASSCTL_REAL:?}" "$@"
