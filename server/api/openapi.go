package api

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"

	"go.yaml.in/yaml/v3"
)

// openAPIYAML is the OpenAPI 3.1 document as written, in openapi.yaml.
//
//go:embed openapi.yaml
var openAPIYAML []byte

// OpenAPI is the OpenAPI 3.1 document of the REST API as JSON, served at
// /api/v1/openapi.json. It is converted once, at start-up, from the
// embedded openapi.yaml. The tests validate every request and response
// they make against it.
var OpenAPI = mustYAMLToJSON(openAPIYAML)

// handleOpenAPI handles "GET /openapi.json". It needs no token but counts
// against the client IP's anonymous budget.
func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	_, _ = w.Write(OpenAPI)
}

// mustYAMLToJSON converts the embedded document, panicking when it is not
// valid YAML: a broken document is a build mistake the tests catch.
func mustYAMLToJSON(doc []byte) []byte {
	b, err := yamlToJSON(doc)
	if err != nil {
		panic("server/api: openapi.yaml: " + err.Error())
	}
	return b
}

// yamlToJSON converts a YAML document to JSON. Mappings must have string
// keys, as JSON objects do.
func yamlToJSON(doc []byte) ([]byte, error) {
	var v any
	if err := yaml.Unmarshal(doc, &v); err != nil {
		return nil, err
	}
	v, err := jsonValue(v, "")
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// jsonValue makes a decoded YAML value encodable as JSON: every mapping
// becomes a map[string]any. path locates v in errors.
func jsonValue(v any, path string) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			c, err := jsonValue(e, path+"/"+k)
			if err != nil {
				return nil, err
			}
			v[k] = c
		}
		return v, nil
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			s, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("%s: key %v is not a string", path, k)
			}
			c, err := jsonValue(e, path+"/"+s)
			if err != nil {
				return nil, err
			}
			m[s] = c
		}
		return m, nil
	case []any:
		for i, e := range v {
			c, err := jsonValue(e, fmt.Sprintf("%s/%d", path, i))
			if err != nil {
				return nil, err
			}
			v[i] = c
		}
		return v, nil
	}
	return v, nil
}
