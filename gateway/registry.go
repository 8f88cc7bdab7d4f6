package gateway

import (
	"errors"
	"fmt"
	"strings"

	"github.com/forgetools/forgetools/enumname"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
)

// coordinate keys a forge instance; hosts compare case-insensitively.
type coordinate struct {
	provider forgev1.ForgeProvider
	host     string
}

// registry resolves a request's forge selector to a configured provider.
type registry struct {
	byCoord map[coordinate]Provider
	// first is each provider's default instance: its first configured one.
	first map[forgev1.ForgeProvider]Provider
	def   Provider
}

func newRegistry(forges []Forge) (*registry, error) {
	if len(forges) == 0 {
		return nil, errors.New("config has no forges")
	}
	r := &registry{byCoord: map[coordinate]Provider{}, first: map[forgev1.ForgeProvider]Provider{}}
	for i, f := range forges {
		if f.Provider == nil || f.Provider.Ref() == nil {
			return nil, fmt.Errorf("forge %d has no provider", i)
		}
		ref := f.Provider.Ref()
		if ref.GetProvider() == forgev1.ForgeProvider_FORGE_PROVIDER_UNSPECIFIED || providerName(ref.GetProvider()) == "" {
			return nil, fmt.Errorf("forge %d names no known provider", i)
		}
		c := coordinate{ref.GetProvider(), strings.ToLower(ref.GetHost())}
		if _, dup := r.byCoord[c]; dup {
			return nil, fmt.Errorf("forge %s is configured twice", describe(ref))
		}
		r.byCoord[c] = f.Provider
		if _, ok := r.first[c.provider]; !ok {
			r.first[c.provider] = f.Provider
		}
		if f.Default {
			if r.def != nil {
				return nil, fmt.Errorf("both %s and %s are marked default", describe(r.def.Ref()), describe(ref))
			}
			r.def = f.Provider
		}
	}
	if r.def == nil {
		r.def = forges[0].Provider
	}
	return r, nil
}

// resolve maps a selector to its provider: none (or an empty one) is the
// default forge; a provider without a host is that provider's default
// instance; anything not configured is not_found, never another forge.
func (r *registry) resolve(sel *forgev1.ForgeRef) (Provider, *gatewayv1.ForgeCallError) {
	p, h := sel.GetProvider(), strings.ToLower(sel.GetHost())
	switch {
	case p == forgev1.ForgeProvider_FORGE_PROVIDER_UNSPECIFIED && h == "":
		return r.def, nil
	case p == forgev1.ForgeProvider_FORGE_PROVIDER_UNSPECIFIED:
		return nil, failure(gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT,
			"forge_host %q needs forge_provider: a host alone does not say which forge", sel.GetHost())
	case h == "":
		if prov, ok := r.first[p]; ok {
			return prov, nil
		}
		return nil, failure(gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "no %s forge is configured", providerName(p))
	}
	if prov, ok := r.byCoord[coordinate{p, h}]; ok {
		return prov, nil
	}
	return nil, failure(gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND, "forge %s/%s is not configured", providerName(p), sel.GetHost())
}

// providerName is the provider's short name ("github"), as the tools spell
// it; "" for a value outside the enum.
func providerName(p forgev1.ForgeProvider) string {
	if p.Descriptor().Values().ByNumber(p.Number()) == nil {
		return ""
	}
	return enumname.Of(p)
}

// describe renders a coordinate for messages and logs: "github/github.com",
// or just "local" for an instance without a host.
func describe(ref *forgev1.ForgeRef) string {
	if ref.GetHost() == "" {
		return providerName(ref.GetProvider())
	}
	return providerName(ref.GetProvider()) + "/" + ref.GetHost()
}
