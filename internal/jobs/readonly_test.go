package jobs

import "testing"

func TestIsReadOnly(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		// Read-only.
		{"ls", true},
		{"ls -la src", true},
		{"cat go.mod", true},
		{"head -n 20 main.go | tail -5", true},
		{"wc -l *.go", true},
		{"git status", true},
		{"git log --oneline -n 5", true},
		{"git diff HEAD~1 -- README.md", true},
		{"git -C sub --no-pager show HEAD:go.mod", true},
		{"git branch", true},
		{"git branch -a --list 'feat/*'", true},
		{"git tag -l 'v1.*'", true},
		{"git config --get user.name", true},
		{"grep -rn 'TODO' . | head", true},
		{"rg -n foo --glob '*.go'", true},
		{"find . -name '*.go' -type f", true},
		{"pwd && echo hi", true},
		{"which go || echo missing", true},
		{"file a.out; stat go.mod", true},
		{"ls nope 2>/dev/null || echo none", true},
		{"ls 2>&1 | wc -l", true},
		{"cat < go.mod", true},
		{"(ls; pwd)", true},
		{"{ ls; pwd; }", true},
		{"echo $HOME \"${PATH}\"", true},
		{"echo $((1 + 2))", true},
		{"cat <<'EOF'\n$(rm -rf /)\nEOF", true},
		{"grep -c x <<< \"abc\"", true},
		{"sort -u -k2 names.txt", true},
		{"date +%s", true},
		{"command -v go", true},
		{"[[ -f go.mod ]] && echo yes", true},
		{"go env GOPATH", true},
		{"time ls", true},
		{"! grep -q foo bar", true},

		// Not read-only.
		{"ls > f", false},
		{"ls >> f", false},
		{"ls &> f", false},
		{"ls >&f", false},
		{"echo hi | tee f", false},
		{"cat $(x)", false},
		{"cat `x`", false},
		{"echo \"$(rm -rf /)\"", false},
		{"diff <(ls a) <(ls b)", false},
		{"cat <<EOF\n$(rm -rf /)\nEOF", false},
		{"git push", false},
		{"git commit -m x", false},
		{"git -c core.pager=rm log", false},
		{"git branch newbranch", false},
		{"git branch -D old", false},
		{"git tag v1", false},
		{"git config user.name x", false},
		{"git diff --output=f", false},
		{"git stash", false},
		{"find . -delete", false},
		{"find . -name x -exec rm {} \\;", false},
		{"find . -\\delete", false},
		{"fd -x rm", false},
		{"rg --pre ./script foo", false},
		{"ls && rm x", false},
		{"rm -rf /", false},
		{"mkdir d", false},
		{"touch f", false},
		{"cd /tmp", false},
		{"cd /tmp && ls", false},
		{"FOO=bar ls", false},
		{"PAGER=rm git log", false},
		{"x=1", false},
		{"export X=1", false},
		{"echo ${x:=1}", false},
		{"echo $((x=1))", false},
		{"echo $((x++))", false},
		{"sort -o out in", false},
		{"sort -ro out in", false},
		{"uniq in out", false},
		{"date -s now", false},
		{"date 010100002030", false},
		{"printf -v x hi", false},
		{"env rm x", false},
		{"command rm x", false},
		{"$CMD", false},
		{"ls &", false},
		{"sleep 1 & ls", false},
		{"if true; then ls; fi", false},
		{"for f in *; do cat $f; done", false},
		{"f() { ls; }; f", false},
		{"xargs rm < list", false},
		{"sed -i s/a/b/ f", false},
		{"awk '{print > \"f\"}' x", false},
		{"go env -w GOFLAGS=-x", false},
		{"go build ./...", false},
		{"find . -name $X", false},
		{"", false},
		{"# only a comment", false},
		{"ls (", false},
		{"echo ${x@P}", false},
		{"ls {fd}>f", false},
	} {
		if got := IsReadOnly(tc.cmd); got != tc.want {
			t.Errorf("IsReadOnly(%q) = %v, want %v", tc.cmd, got, tc.want)
		}
	}
}

func FuzzIsReadOnly(f *testing.F) {
	for _, s := range []string{"ls", "git log | head", "find . -delete", "cat $(x) > f", "echo ${x:=1}", "git -C d branch -l", "a && b || c; (d) | { e; }"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		IsReadOnly(cmd)
	})
}
