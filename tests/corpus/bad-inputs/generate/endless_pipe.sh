# Usage: sh endless_pipe.sh SKIPSOUND — a schema read from a pipe that carries 70 MB.
head -c 70000000 /dev/zero | "$1" parse --schema /dev/stdin "i > 1"
