// Package schema holds the JSON Schema (draft 2020-12) of intent's change
// records, change.schema.json, for the REST API and webhooks.
package schema

import _ "embed"

// Change is the JSON Schema of intent.Result and intent.Change.
//
//go:embed change.schema.json
var Change []byte
