package gateway

// hold is one reason a call waits for an operator before any provider runs:
// the policy's rule for its approval level, action class or risk, or an
// information-flow rule of the session.
type hold struct {
	// rule names what held the call, e.g. "push: operator", "flow: private to public".
	rule string
	// reason says why in one sentence, for the model and the operator.
	reason string
}
