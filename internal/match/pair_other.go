//go:build !amd64

package match

import "bytes"

// indexPair returns the smallest i such that buf[i] is a1 or a2 and
// buf[i+d] is c1 or c2, or -1; d >= 0.
func indexPair(buf []byte, a1, a2, c1, c2 byte, d int) int {
	n := len(buf) - d
	for i := 0; i < n; {
		var j int
		if a1 == a2 {
			j = bytes.IndexByte(buf[i:n], a1)
		} else {
			j = indexEither(buf[i:n], a1, a2)
		}
		if j < 0 {
			return -1
		}
		i += j
		if c := buf[i+d]; c == c1 || c == c2 {
			return i
		}
		i++
	}
	return -1
}

func indexEither(b []byte, x, y byte) int {
	i := bytes.IndexByte(b, x)
	lim := len(b)
	if i >= 0 {
		lim = i
	}
	if j := bytes.IndexByte(b[:lim], y); j >= 0 {
		return j
	}
	return i
}
