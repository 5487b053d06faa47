package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/vigil-web/vigil"
)

// operationMethods are the members of an OpenAPI path item that are
// operations.
var operationMethods = map[string]bool{"get": true, "put": true, "post": true, "delete": true,
	"options": true, "head": true, "patch": true, "trace": true}

// apiQueryParameters returns, for each operation of openapi.json by its
// route pattern ("GET /api/v1/changes"), the query parameters it takes in
// the order documented. An operation one of whose parameters is a $ref,
// which this reading does not follow, is left out: it is not checked.
func apiQueryParameters(doc []byte) (map[string][]string, error) {
	type param struct {
		Name string `json:"name"`
		In   string `json:"in"`
		Ref  string `json:"$ref"`
	}
	var spec struct {
		Servers []struct {
			URL string `json:"url"`
		} `json:"servers"`
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(doc, &spec); err != nil {
		return nil, fmt.Errorf("openapi.json: %w", err)
	}
	base := ""
	if len(spec.Servers) > 0 {
		base = strings.TrimSuffix(spec.Servers[0].URL, "/")
	}
	out := make(map[string][]string)
	for path, item := range spec.Paths {
		var shared []param
		if raw, ok := item["parameters"]; ok {
			if err := json.Unmarshal(raw, &shared); err != nil {
				return nil, fmt.Errorf("openapi.json: %s parameters: %w", path, err)
			}
		}
		for method, raw := range item {
			if !operationMethods[method] {
				continue // "parameters", "summary" and the like
			}
			var op struct {
				Parameters []param `json:"parameters"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				return nil, fmt.Errorf("openapi.json: %s %s: %w", method, path, err)
			}
			names := []string{}
			checked := true
			for _, p := range append(slices.Clone(shared), op.Parameters...) {
				switch {
				case p.Ref != "":
					checked = false
				case p.In == "query" && !slices.Contains(names, p.Name):
					names = append(names, p.Name)
				}
			}
			if checked {
				out[strings.ToUpper(method)+" "+base+path] = names
			}
		}
	}
	return out, nil
}

// documentedQuery wraps h, the handler of the route pattern, so that a
// query parameter the route's operation in openapi.json does not name is
// refused (EINVALID, naming it and those the route takes) instead of
// ignored: ?sentinelId=3, as the JSON spells the field, answered as if no
// filter were given. A route openapi.json does not document is not
// checked.
//
// A parameter given more than once (?sentinel=1&sentinel=2) is refused
// (EINVALID, naming it): the handlers read its first value only.
//
// A parameter given with an empty value (?sentinel=) is refused too
// (EINVALID, naming it): the handlers read an empty value as the
// parameter's absence, so a script whose variable was unset got every
// change, unfiltered, where it asked for one sentinel's. The API's list
// routes all take this rule from here; the dashboard's forms, which send
// empty values for "any", do not pass through it.
func documentedQuery(params map[string][]string, pattern string, h apiFunc) apiFunc {
	names, ok := params[pattern]
	if !ok {
		return h
	}
	takes := "none"
	if len(names) > 0 {
		takes = strings.Join(names, ", ")
	}
	return func(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
		if r.URL.RawQuery != "" {
			q := r.URL.Query()
			keys := make([]string, 0, 4)
			for k := range q {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				if !slices.Contains(names, k) {
					// The parameter is not named: a link could make
					// the answer say anything.
					return vigil.Errorf(vigil.EINVALID, "unknown query parameter: %s takes %s", pattern, takes)
				}
			}
			for _, k := range keys {
				if slices.Contains(q[k], "") {
					return vigil.Errorf(vigil.EINVALID, "%s must not be empty: give it a value, or leave it out", k)
				}
				if len(q[k]) > 1 {
					// The handlers read the first value: the others
					// would be ignored.
					return vigil.Errorf(vigil.EINVALID, "%s is given more than once: give it once", k)
				}
			}
		}
		return h(w, r, u)
	}
}
