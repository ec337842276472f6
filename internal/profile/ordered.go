package profile

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// renameKeys renames the keys of a JSON object, keeping their order.
func renameKeys(obj json.RawMessage, names map[string]string) json.RawMessage {
	keys, vals, err := orderedObject(obj)
	if err != nil {
		return obj
	}
	for i, k := range keys {
		if x, ok := names[k]; ok {
			keys[i] = x
		}
	}
	return writeObject(keys, vals)
}

// orderedObject returns the keys and raw values of a JSON object, in order.
func orderedObject(obj json.RawMessage) ([]string, []json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	t, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if t != json.Delim('{') {
		return nil, nil, fmt.Errorf("not a JSON object")
	}
	var keys []string
	var vals []json.RawMessage
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys = append(keys, t.(string))
		vals = append(vals, v)
	}
	return keys, vals, nil
}

func writeObject(keys []string, vals []json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vals[i])
	}
	b.WriteByte('}')
	return b.Bytes()
}
