package jobs

import (
	"fmt"
	"os"
	"strings"
)

// tooLong says why the kernel refused to start the shell with args and
// env as too long (E2BIG), and what to do instead. Linux bounds each
// argument or variable at 32 pages (MAX_ARG_STRLEN: 128 KiB) and all of
// them together at a quarter of the stack limit (ARG_MAX: 2 MiB with the
// usual 8 MiB); the command is the shell's last argument.
func tooLong(args, env []string) string {
	maxOne := 32 * os.Getpagesize()
	total, longest, what := 0, 0, ""
	for n, a := range args {
		total += len(a) + 1
		if len(a)+1 > longest {
			longest, what = len(a)+1, "the command"
			if n != len(args)-1 {
				what = "an argument of the shell"
			}
		}
	}
	for _, e := range env {
		total += len(e) + 1
		if len(e)+1 > longest {
			name, _, _ := strings.Cut(e, "=")
			longest, what = len(e)+1, "the environment variable "+name
		}
	}
	if longest > maxOne {
		return fmt.Sprintf("%s takes %d bytes, over the kernel's bound of %d bytes for one argument or variable; put the text in a file and have the command read it", what, longest, maxOne)
	}
	return fmt.Sprintf("the command and its environment take %d bytes, over the kernel's bound for all of them together (ARG_MAX, a quarter of the stack limit `ulimit -s`); put the text in a file and have the command read it", total)
}
