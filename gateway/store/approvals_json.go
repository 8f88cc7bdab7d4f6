package store

import "encoding/json"

// encodeLists writes an approval's escalations and holds as the JSON
// arrays its row keeps.
func encodeLists(esc []string, holds []Hold) (string, string, error) {
	if esc == nil {
		esc = []string{}
	}
	if holds == nil {
		holds = []Hold{}
	}
	e, err := json.Marshal(esc)
	if err != nil {
		return "", "", err
	}
	h, err := json.Marshal(holds)
	return string(e), string(h), err
}

func decodeLists(esc, holds string, a *Approval) error {
	if err := json.Unmarshal([]byte(esc), &a.Escalations); err != nil {
		return err
	}
	return json.Unmarshal([]byte(holds), &a.Holds)
}
