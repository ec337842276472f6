package tooltest

import (
	"strings"
	"testing"
)

func TestParseUntil(t *testing.T) {
	s, err := Parse([]byte("polls\n-- call --\n{\"name\":\"bash\",\"input\":{}}\n{\"name\":\"task_output\",\"input\":{\"task_id\":\"job-1\"},\"until\":\"done\"}\n-- want --\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Calls) != 2 || s.Calls[1].Name != "task_output" || len(s.Until) != 1 || s.Until[1] != "done" {
		t.Errorf("calls %+v, until %v", s.Calls, s.Until)
	}
	_, err = Parse([]byte("empty\n-- call --\n{\"name\":\"task_output\",\"until\":\"\"}\n"))
	if err == nil || !strings.Contains(err.Error(), "until is empty") {
		t.Errorf("an empty until: %v", err)
	}
}
