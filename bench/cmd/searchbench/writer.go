package main

import (
	"bufio"
	"io"
)

func newWriter(w io.Writer) *bufio.Writer { return bufio.NewWriterSize(w, 64<<10) }
