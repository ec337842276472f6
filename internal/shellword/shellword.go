// Package shellword reads the words of a parsed shell command
// (mvdan.cc/sh/v3/syntax) without running anything: the value of a word
// made only of literal text and quotes, and whether a node expands to
// something that runs or assigns. It is shared by the read-only check of
// package jobs and the command rules of package permission, so that both
// see the same word where the shell does.
package shellword

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Literal returns the value of a word made only of literal text and
// quotes ('…', "…" without expansions, $'…'), as the shell would pass it:
// backslashes removed, ANSI-C escapes decoded. It is false for a word
// holding any expansion.
func Literal(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	var sb strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			sb.WriteString(Unescape(p.Value))
		case *syntax.SglQuoted:
			if !p.Dollar {
				sb.WriteString(p.Value)
				continue
			}
			s, err := expand.Literal(nil, &syntax.Word{Parts: []syntax.WordPart{p}})
			if err != nil {
				return "", false
			}
			sb.WriteString(s)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false // $"…" is translated by the locale
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				sb.WriteString(unescapeDouble(l.Value))
			}
		default:
			return "", false
		}
	}
	return sb.String(), true
}

// Unescape drops the backslashes of unquoted literal text, so that -\delete
// reads as -delete and r\m as rm; a backslash before a newline joins the
// lines.
func Unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// unescapeDouble drops the backslashes that escape inside double quotes:
// before $ ` " \ and newline; others stay.
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// Unquoted reports whether the word has unquoted text holding one of the
// bytes in chars, not escaped: a glob (*?[) or a brace ({) the shell
// expands.
func Unquoted(w *syntax.Word, chars string) bool {
	for _, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		for i := 0; i < len(l.Value); i++ {
			if l.Value[i] == '\\' {
				i++
				continue
			}
			if strings.IndexByte(chars, l.Value[i]) >= 0 {
				return true
			}
		}
	}
	return false
}

// IsDigits reports whether s is a non-empty run of ASCII digits.
func IsDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// Inert reports whether n runs nothing and assigns nothing when expanded:
// no command or process substitution, no ${x=y}, no arithmetic assignment,
// no ${x@P} (prompt expansion can run commands).
func Inert(n syntax.Node) bool {
	if n == nil {
		return true
	}
	ok := true
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			ok = false
		case *syntax.ParamExp:
			if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull || n.Exp.Op == syntax.OtherParamOps) {
				ok = false
			}
		case *syntax.BinaryArithm:
			if slices.Contains(arithmAssigns, n.Op) {
				ok = false
			}
		case *syntax.UnaryArithm:
			if n.Op == syntax.Inc || n.Op == syntax.Dec {
				ok = false
			}
		}
		return ok
	})
	return ok
}

var arithmAssigns = []syntax.BinAritOperator{
	syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
	syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn,
	syntax.ShrAssgn, syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn,
}
