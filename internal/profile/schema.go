package profile

import (
	"encoding/json"
	"fmt"
	"slices"
)

// buildSchema derives the exposed input schema of e from the core's: the
// parameters in e's order under e's names, the core's types and
// constraints, e's descriptions, defaults and extra keywords.
func buildSchema(core json.RawMessage, e Entry) (json.RawMessage, error) {
	schema, err := buildObject(core, e.Params, e.Required, true)
	if err != nil || e.SchemaKeywords == "" {
		return schema, err
	}
	ek, ev, err := orderedObject(json.RawMessage(e.SchemaKeywords))
	if err != nil {
		return nil, fmt.Errorf("schema keywords %s: %v", e.SchemaKeywords, err)
	}
	keys, vals, err := orderedObject(schema)
	if err != nil {
		return nil, err
	}
	for i, k := range keys {
		if !slices.Contains(ek, k) {
			ek, ev = append(ek, k), append(ev, vals[i])
		}
	}
	return writeObject(ek, ev), nil
}

func buildObject(core json.RawMessage, params []Param, required []string, top bool) (json.RawMessage, error) {
	keys, vals, err := orderedObject(core)
	if err != nil {
		return nil, err
	}
	obj := map[string]json.RawMessage{}
	for i, k := range keys {
		obj[k] = vals[i]
	}
	if _, ok := obj["properties"]; !ok && top {
		obj["properties"] = json.RawMessage("{}") // a tool without parameters
		keys = append(keys, "properties")
	}
	var coreRequired []string
	if r, ok := obj["required"]; ok {
		if err := json.Unmarshal(r, &coreRequired); err != nil {
			return nil, err
		}
	}
	pk, pv, err := orderedObject(obj["properties"])
	if err != nil {
		return nil, fmt.Errorf("no properties: %v", err)
	}
	props := map[string]json.RawMessage{}
	for i, k := range pk {
		props[k] = pv[i]
	}
	var outKeys []string
	var outVals []json.RawMessage
	var req []string
	for _, p := range params {
		cp, ok := props[p.core()]
		if !ok {
			return nil, fmt.Errorf("the core tool has no parameter %q (it has %v)", p.core(), pk)
		}
		prop, err := buildProp(cp, p)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %v", p.Name, err)
		}
		outKeys = append(outKeys, p.Name)
		outVals = append(outVals, prop)
		if slices.Contains(coreRequired, p.core()) && p.Default == nil {
			req = append(req, p.Name)
		}
	}
	if required != nil && top {
		req = required
	}
	obj["properties"] = writeObject(outKeys, outVals)
	if len(req) > 0 {
		obj["required"], _ = json.Marshal(req)
		if !slices.Contains(keys, "required") {
			keys = insertAfter(keys, "properties", "required")
		}
	} else if slices.Contains(keys, "required") {
		keys = slices.DeleteFunc(keys, func(k string) bool { return k == "required" })
	}
	vals = make([]json.RawMessage, len(keys))
	for i, k := range keys {
		vals[i] = obj[k]
	}
	return writeObject(keys, vals), nil
}

func insertAfter(keys []string, after, k string) []string {
	i := slices.Index(keys, after)
	if i < 0 {
		return append(keys, k)
	}
	return slices.Insert(keys, i+1, k)
}

// buildProp is one exposed parameter's schema: the core's, with the
// description, default, extra keywords and item parameters of p.
func buildProp(core json.RawMessage, p Param) (json.RawMessage, error) {
	keys, vals, err := orderedObject(core)
	if err != nil {
		return nil, err
	}
	set := func(k string, v json.RawMessage) {
		if i := slices.Index(keys, k); i >= 0 {
			vals[i] = v
			return
		}
		keys, vals = append(keys, k), append(vals, v)
	}
	if i := slices.Index(keys, "type"); i >= 0 {
		// A Go pointer or slice admits null; the documents' schemas do
		// not, and a model should not send it.
		var types []string
		if json.Unmarshal(vals[i], &types) == nil && len(types) == 2 && types[0] == "null" {
			vals[i], _ = json.Marshal(types[1])
		}
	}
	if p.Description != "" {
		b, _ := json.Marshal(p.Description)
		set("description", b)
	}
	if p.NoDescription {
		if i := slices.Index(keys, "description"); i >= 0 {
			keys, vals = slices.Delete(keys, i, i+1), slices.Delete(vals, i, i+1)
		}
	}
	if p.Default != nil {
		b, _ := json.Marshal(p.Default)
		set("default", b)
	}
	if p.Schema != "" {
		ek, ev, err := orderedObject(json.RawMessage(p.Schema))
		if err != nil {
			return nil, fmt.Errorf("extra schema %s: %v", p.Schema, err)
		}
		for i, k := range ek {
			set(k, ev[i])
		}
	}
	if len(p.Items) > 0 {
		i := slices.Index(keys, "items")
		if i < 0 {
			return nil, fmt.Errorf("has item parameters but is not an array")
		}
		items, err := buildObject(vals[i], p.Items, p.ItemsRequired, p.ItemsRequired != nil)
		if err != nil {
			return nil, fmt.Errorf("items: %v", err)
		}
		vals[i] = items
	}
	return writeObject(keys, vals), nil
}
