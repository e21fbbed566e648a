#!/bin/sh
# Print which implementations a test run exercised (tests append prim/impl
# lines to BUILD/exercised.txt through tl_exercised()).
# usage: exercised.sh BUILD_DIR LEG_NAME
f="$1/exercised.txt"
if [ ! -s "$f" ]; then
    echo "backends exercised on leg $2: none recorded"
    exit 1
fi
printf 'backends exercised on leg %s: ' "$2"
sort -u "$f" | tr '\n' ' '
echo
