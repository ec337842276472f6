package tools

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"
)

const idNotebook = `{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": 1,
   "id": "first",
   "metadata": {},
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "1\n"
     ]
    }
   ],
   "source": [
    "print(1)"
   ]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
`

func TestNotebookInsertGivesAFreshID(t *testing.T) {
	f := newFixture(t)
	f.put("nb.ipynb", []byte(idNotebook), 0o644)
	f.read("nb.ipynb")
	res := f.ok("notebook_edit", map[string]any{"path": "nb.ipynb", "cell_id": "first", "edit_mode": "insert", "cell_type": "markdown", "new_source": "Done."})
	out := res.Structured.(*NotebookEditOutput)
	if out.CellIndex != 1 || !regexp.MustCompile(`^[0-9a-f]{8}$`).MatchString(out.CellID) || out.CellType != "markdown" {
		t.Fatalf("output %+v", out)
	}
	data := f.get("nb.ipynb")
	var nb struct {
		Cells []struct {
			ID      string            `json:"id"`
			Outputs []json.RawMessage `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatal(err)
	}
	if len(nb.Cells) != 2 || nb.Cells[1].ID != out.CellID || len(nb.Cells[0].Outputs) != 1 {
		t.Errorf("cells %+v", nb.Cells)
	}
	// The first cell, with its output, is byte for byte as it was.
	first := idNotebook[len("{\n \"cells\": [\n"):bytes.Index([]byte(idNotebook), []byte("\n  }\n"))]
	if !bytes.Contains(data, []byte(first)) {
		t.Errorf("the first cell changed:\n%s", data)
	}
	// The session wrote it, so it may edit again without reading.
	f.ok("notebook_edit", map[string]any{"path": "nb.ipynb", "cell_id": out.CellID, "edit_mode": "delete", "new_source": ""})
	if got := f.get("nb.ipynb"); string(got) != idNotebook {
		t.Errorf("insert then delete did not give back the notebook:\n%s", got)
	}
}

func TestNotebookEditKeepsABOM(t *testing.T) {
	f := newFixture(t)
	f.put("nb.ipynb", append([]byte("\xEF\xBB\xBF"), idNotebook...), 0o644)
	f.read("nb.ipynb")
	f.ok("notebook_edit", map[string]any{"path": "nb.ipynb", "cell_index": 0, "new_source": "print(2)"})
	got := f.get("nb.ipynb")
	if !bytes.HasPrefix(got, []byte("\xEF\xBB\xBF{")) || !bytes.Contains(got, []byte(`"print(2)"`)) {
		t.Errorf("notebook %q", got)
	}
}
