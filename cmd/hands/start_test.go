package main

import (
	"bufio"
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Budgets of what one of our packages may allocate while it initialises,
// in every start of the binary (hands --version included). A few
// sync.OnceValue wrappers (2 allocations, 72 bytes each) fit; a table, a
// map literal of more than a handful of entries or a compiled regexp does
// not: those are built on first use (sync.OnceValue, a sync.Once, a switch
// or a sorted table the linker lays out).
const (
	initAllocBudget = 16
	initByteBudget  = 2048
)

var initLine = regexp.MustCompile(`^init (\S+) @[0-9.]+ ms, [0-9.]+ ms clock, ([0-9]+) bytes, ([0-9]+) allocs$`)

// initTrace runs the binary with GODEBUG=inittrace=1 and returns, by
// package, the bytes and allocations of its initialisation.
func initTrace(t *testing.T, args ...string) map[string][2]int {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", binary, strings.Join(args, " "), err, stderr.String())
	}
	out := map[string][2]int{}
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		m := initLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		b, _ := strconv.Atoi(m[2])
		n, _ := strconv.Atoi(m[3])
		out[m[1]] = [2]int{b, n}
	}
	return out
}

// TestOurInitsBuildNothing: no package of ours builds a table, a map or a
// regexp when the binary starts; a call or hands --version must not pay
// for what only some other call uses.
func TestOurInitsBuildNothing(t *testing.T) {
	trace := initTrace(t, "--version")
	if _, ok := trace["github.com/hands-dev/hands/internal/profile"]; !ok {
		t.Fatalf("GODEBUG=inittrace=1 printed no line for internal/profile; read %d lines: %v", len(trace), trace)
	}
	for pkg, c := range trace {
		if pkg != "main" && !strings.HasPrefix(pkg, "github.com/hands-dev/hands") {
			continue
		}
		if c[0] > initByteBudget || c[1] > initAllocBudget {
			t.Errorf("%s allocates %d bytes in %d allocations at init (budget %d bytes, %d allocations): build its tables on first use", pkg, c[0], c[1], initByteBudget, initAllocBudget)
		}
	}
}

// sdkService matches the methods of the model SDKs' services in the
// binary's symbol table.
var sdkService = regexp.MustCompile(`^(github\.com/openai/openai-go/v3|github\.com/anthropics/anthropic-sdk-go)\.\(\*([A-Za-z]+Service)\)\.[A-Z]`)

// TestBinaryLinksOnlyTheServicesAgentsUse: the subagents talk to the Chat
// Completions and Messages APIs only; a Client of either SDK would link
// every service of its API (images, audio, realtime, files, ...: 36 MB of
// the binary's 108) and every start would map and fault in its share.
func TestBinaryLinksOnlyTheServicesAgentsUse(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads the symbol table of an ELF binary")
	}
	f, err := elf.Open(binary)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	allowed := []string{"ChatCompletionService", "ChatCompletionMessageService", "MessageService", "MessageBatchService"}
	seen := map[string]bool{}
	for _, s := range syms {
		if m := sdkService.FindStringSubmatch(s.Name); m != nil {
			seen[m[1]+"."+m[2]] = true
			if !slices.Contains(allowed, m[2]) {
				t.Errorf("the binary links %s", s.Name)
			}
		}
	}
	for _, want := range []string{"github.com/openai/openai-go/v3.ChatCompletionService", "github.com/anthropics/anthropic-sdk-go.MessageService"} {
		if !seen[want] {
			t.Errorf("no method of %s in the symbol table (read %d symbols): the test no longer sees what it checks", want, len(syms))
		}
	}
}
