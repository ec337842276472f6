package confine

import "testing"

func TestHasCommandSubstitution(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{"ls -la", false},
		{"echo $(whoami)", true},
		{"echo `whoami`", true},
		{"echo '$(whoami)'", false},
		{"echo '`whoami`'", false},
		{`echo "$(whoami)"`, true},
		{"echo \"`whoami`\"", true},
		{`echo "it costs \$(5)"`, false},
		{`echo \$\(whoami\)`, false},
		{"diff <(ls a) <(ls b)", true},
		{"tee >(wc -l) < f", true},
		{"echo $((1 + 2))", false},
		{"echo $(( $(id -u) + 1 ))", true},
		{"echo ${x:-$(id)}", true},
		{"echo ${x:-'$(id)'}", false},
		{"echo \"${x:-$(id)}\"", true},
		{"cat <<EOF\n$(id)\nEOF", true},
		{"cat <<EOF\n`id`\nEOF", true},
		{"cat <<'EOF'\n$(id)\nEOF", false},
		{"cat <<\"EOF\"\n$(id)\nEOF", false},
		{"cat <<-EOF\n\t$(id)\n\tEOF", true},
		{"echo $(echo $(id))", true},
		{"f() { echo $(id); }", true},
		{"if true; then echo ok; fi", false},
		{"x=$(id) true", true},
		{"[[ $(id) == x ]]", true},
		{"echo ${ id; }", true},
		{"for i in $(seq 3); do echo $i; done", true},
		{"case $(id) in *) ;; esac", true},
		{"echo '$(a)' \"b\" c # $(d)", false},
		{"echo $'\\x24(id)'", false},
		{"grep -E '^[a-z]+$' file", false},
		{"echo $HOME ${PATH}", false},
	} {
		got, err := HasCommandSubstitution(tc.cmd)
		if err != nil {
			t.Errorf("HasCommandSubstitution(%q): %v", tc.cmd, err)
			continue
		}
		if got != tc.want {
			t.Errorf("HasCommandSubstitution(%q) = %v, want %v", tc.cmd, got, tc.want)
		}
	}
}

func TestHasCommandSubstitutionParseError(t *testing.T) {
	for _, cmd := range []string{"echo $(", "echo \"unterminated", "if then fi ("} {
		if _, err := HasCommandSubstitution(cmd); err == nil {
			t.Errorf("HasCommandSubstitution(%q): no error for a command that does not parse", cmd)
		}
	}
}

func FuzzHasCommandSubstitution(f *testing.F) {
	for _, s := range []string{"ls", "echo $(id)", "echo '$(id)'", "cat <<EOF\n`x`\nEOF", "a <(b) | c", "${x:-$(y)}", "$((1+$(z)))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		got, err := HasCommandSubstitution(cmd)
		if err != nil && got {
			t.Fatalf("HasCommandSubstitution(%q) = true with error %v", cmd, err)
		}
	})
}
