package textedit_test

import (
	"fmt"

	"github.com/hands-dev/hands/internal/textedit"
)

// The edit tool's path: decode the file, replace, encode it back the way it
// was stored, and show the change.
func Example() {
	file := []byte("\xEF\xBB\xBFfunc main() {\r\n\tprintln(\"hi\")\r\n}\r\n") // UTF-8 with BOM, CRLF

	text, enc, err := textedit.Decode(file)
	if err != nil {
		panic(err)
	}
	res, err := textedit.Apply(text, textedit.Edit{Old: `println("hi")`, New: `println("hello")`})
	if err != nil {
		panic(err)
	}
	out, err := textedit.Encode(res.Text, enc)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s, line %v\n%q\n", enc, res.Lines, out)
	fmt.Print(textedit.Summarize(textedit.Diff("main.go", text, res.Text, 3), 10))
	// Output:
	// UTF-8 with BOM, CRLF, line [2]
	// "\ufefffunc main() {\r\n\tprintln(\"hello\")\r\n}\r\n"
	// --- a/main.go
	// +++ b/main.go
	// @@ -1,3 +1,3 @@
	//  func main() {
	// -	println("hi")
	// +	println("hello")
	//  }
}

// A string copied from read output with its line numbers still matches,
// and the result says so.
func ExampleApply_lineNumberPrefix() {
	res, err := textedit.Apply("a\nb\nc\n", textedit.Edit{Old: "     2\tb\n     3\tc", New: "     2\tB\n     3\tC"})
	fmt.Printf("%q %s %v\n", res.Text, res.Normalization, err)
	// Output: "a\nB\nC\n" line-number-prefix <nil>
}
