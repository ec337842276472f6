package shellword

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

func words(t testing.TB, src string) []*syntax.Word {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil
	}
	var out []*syntax.Word
	syntax.Walk(f, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.Word); ok {
			out = append(out, w)
		}
		return true
	})
	return out
}

func TestLiteral(t *testing.T) {
	for src, want := range map[string]string{
		`rm`: "rm", `'rm'`: "rm", `"rm"`: "rm", `r\m`: "rm", `r''m`: "rm", `$'r\x6d'`: "rm",
		`"a\"b"`: `a"b`, `"a\b"`: `a\b`, "r\\\nm": "rm", `-\delete`: "-delete",
	} {
		ws := words(t, src)
		if len(ws) != 1 {
			t.Fatalf("%q: %d words", src, len(ws))
		}
		if got, ok := Literal(ws[0]); !ok || got != want {
			t.Errorf("Literal(%q) = %q, %v; want %q", src, got, ok, want)
		}
	}
	for _, src := range []string{`$x`, `"$x"`, "`x`", `$(x)`, `$"x"`, `a$((1))`} {
		if got, ok := Literal(words(t, src)[0]); ok {
			t.Errorf("Literal(%q) = %q, true; an expansion is not literal", src, got)
		}
	}
}

// FuzzLiteral checks Literal against the shell's own expansion: a word it
// reads as literal expands to exactly that value.
func FuzzLiteral(f *testing.F) {
	for _, s := range []string{`rm`, `'r'm`, `"a\"b\$c"`, `$'\x41\n'`, "a\\\nb", `r\m`, `"x\y"`, `{a,b}`, `*.go`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, w := range words(t, src) {
			got, ok := Literal(w)
			if !ok || Unquoted(w, "*?[{~") {
				continue
			}
			fields, err := expand.Fields(nil, w)
			if err != nil || len(fields) != 1 {
				continue
			}
			if want := fields[0]; got != want {
				t.Fatalf("Literal(%q) = %q, the shell expands it to %q", src, got, fields[0])
			}
		}
	})
}
