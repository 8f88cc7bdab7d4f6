package runtime

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/forgetools/forgetools/enumname"
	"github.com/forgetools/forgetools/runtime/args"
	"github.com/forgetools/forgetools/runtime/schema"
)

// Forge is one forge instance a gateway serves, spelled as the tools'
// selector spells it.
type Forge struct {
	// Provider is the provider as the model writes it: "github".
	Provider string
	// Host is the instance's host ("github.example.com"); "" for the
	// provider's default instance.
	Host string
	// Default marks the forge a call without a selector goes to; with
	// none marked, the first forge is the default.
	Default bool
}

// WithForges narrows the toolset to the forges a gateway serves: the
// selector's provider enum lists only their providers (the default one as
// the schema's default), forge_host is offered only when a provider has
// several instances, and with a single forge the selector parameters
// disappear from every schema. The decoders agree: a parameter the schema
// no longer has is an unknown parameter, a value it no longer lists is
// refused. The instructions keep only the parts whose conditions hold.
//
// The selector must be shaped like forgetools.forge.v1.ForgeRef: an enum
// field named provider and a string field named host. The generated
// table itself is never changed: it keeps the full vocabulary.
func WithForges(forges ...Forge) Option {
	return func(c *config) {
		c.narrow = true
		c.forges = append(c.forges, forges...)
	}
}

// selectorField is one selector parameter of a narrowed toolset.
type selectorField struct {
	param string
	// allowed lists the values the tools still offer; nil = any value.
	allowed []string
	def     string // the schema default; "" = none
}

// narrowing is what WithForges changes: the selector parameters offered
// and the values each may take, and the providers served.
type narrowing struct {
	providers []string         // served providers, in the selector enum's order
	offered   []*selectorField // selector parameters kept in the schemas
	dropped   []string         // selector parameters removed from the schemas
}

// narrow works out the narrowing for forges over the table's selector.
func narrow(dispatch protoreflect.MessageDescriptor, forges []Forge) (*narrowing, error) {
	if len(forges) == 0 {
		return nil, errors.New("WithForges: no forges given")
	}
	sel, params := selectorOf(dispatch)
	if sel == nil || sel.Message() == nil {
		return nil, errors.New("WithForges: the table has no forge selector (or its procedure is not linked into this program)")
	}
	fields := sel.Message().Fields()
	provider, host := fields.ByName("provider"), fields.ByName("host")
	if provider == nil || provider.Enum() == nil || host == nil || host.Kind() != protoreflect.StringKind {
		return nil, fmt.Errorf("WithForges: selector %s has no provider enum and host string", sel.Message().FullName())
	}
	var known []string
	for i := range provider.Enum().Values().Len() {
		if v := provider.Enum().Values().Get(i); v.Number() != 0 {
			known = append(known, enumname.Number(provider.Enum(), v.Number()))
		}
	}
	n := &narrowing{}
	instances := map[string]int{}
	def := forges[0].Provider
	for _, f := range forges {
		if !slices.Contains(known, f.Provider) {
			return nil, fmt.Errorf("WithForges: unknown provider %q; the table knows %s", f.Provider, strings.Join(known, ", "))
		}
		instances[f.Provider]++
		if f.Default {
			def = f.Provider
		}
	}
	for _, k := range known {
		if instances[k] > 0 {
			n.providers = append(n.providers, k)
		}
	}
	if len(forges) == 1 {
		n.dropped = []string{params["provider"], params["host"]}
		return n, nil
	}
	n.offered = append(n.offered, &selectorField{param: params["provider"], allowed: n.providers, def: def})
	// A host is worth naming only when a provider has several instances.
	var hosts []string
	for _, f := range forges {
		if instances[f.Provider] > 1 && f.Host != "" && !slices.Contains(hosts, f.Host) {
			hosts = append(hosts, f.Host)
		}
	}
	if len(hosts) == 0 {
		n.dropped = []string{params["host"]}
	} else {
		n.offered = append(n.offered, &selectorField{param: params["host"], allowed: hosts})
	}
	return n, nil
}

// applies reports whether a part of the instructions holds for the
// narrowed toolset.
func (n *narrowing) applies(g Guidance) bool {
	for _, p := range g.Params {
		if slices.Contains(n.dropped, p) {
			return false
		}
	}
	return len(g.Providers) == 0 || slices.ContainsFunc(g.Providers, func(p string) bool { return slices.Contains(n.providers, p) })
}

// tool returns t narrowed: its schema rewritten and its decoder checking
// the selector against what the schema still offers.
func (n *narrowing) tool(t *Tool) (*Tool, error) {
	s, err := objectSchema(t)
	if err != nil {
		return nil, err
	}
	nt := *t
	nt.InputSchema = func() *schema.Schema { return n.schema(t.InputSchema()) }
	decode, names := t.Decode, n.schema(s).Properties.Names()
	nt.Decode = func(data []byte) (Args, error) {
		// The generated decoder still knows the dropped parameters and
		// every value: refuse what the schema no longer offers, naming
		// what is valid, as the decoder would.
		o, err := args.Parse(data, names...)
		if err != nil {
			return Args{}, err
		}
		a, err := decode(data)
		if err != nil {
			return a, err
		}
		if err := n.check(o); err != nil {
			return Args{}, err
		}
		return a, nil
	}
	return &nt, nil
}

// schema rewrites s, a new value of a tool's schema, for the forges: the
// dropped selector parameters removed, the offered ones listing only the
// values served.
func (n *narrowing) schema(s *schema.Schema) *schema.Schema {
	s.Properties = slices.DeleteFunc(s.Properties, func(p schema.Property) bool { return slices.Contains(n.dropped, p.Name) })
	for _, f := range n.offered {
		prop := s.Properties.Get(f.param)
		if prop == nil {
			continue
		}
		if prop.Enum == nil {
			prop.AddedLast("enum")
		}
		prop.Enum = make([]any, len(f.allowed))
		for i, v := range f.allowed {
			prop.Enum[i] = v
		}
		if f.def != "" {
			prop.Default = f.def
			prop.AddedLast("default")
		}
	}
	return s
}

// check refuses a selector value the narrowed schema does not list, in
// the decoder's words for a value it does not know. o holds arguments the
// generated decoder has accepted, so each selector value is a string.
func (n *narrowing) check(o *args.Object) error {
	for _, f := range n.offered {
		if !o.Has(f.param) {
			continue
		}
		if got := args.String(o, f.param, args.Optional); !slices.Contains(f.allowed, got) {
			return args.Errors{{Param: f.param, Message: fmt.Sprintf("expected one of %s, got %q", strings.Join(f.allowed, ", "), got)}}
		}
	}
	return nil
}
