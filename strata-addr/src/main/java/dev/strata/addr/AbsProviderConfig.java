package dev.strata.addr;

import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Literal;
import dev.strata.hcl.Result;
import dev.strata.hcl.Traversal;
import dev.strata.hcl.Traverser;
import java.util.ArrayList;
import java.util.List;

/**
 * A provider configuration in the whole configuration, as state records it:
 * {@code module.net.provider["registry.terraform.io/hashicorp/aws"].west}.
 */
public record AbsProviderConfig(Module module, Provider provider, String alias)
        implements Comparable<AbsProviderConfig> {
    public AbsProviderConfig {
        java.util.Objects.requireNonNull(module);
        java.util.Objects.requireNonNull(provider);
        alias = alias == null || alias.isEmpty() ? null : alias;
    }

    /**
     * Parses the form state files record, {@code module.a.provider["registry.terraform.io/hashicorp/aws"].west},
     * and the form of Terraform 0.12's states, {@code module.a.provider.aws.west}, which means the provider
     * {@code aws} of the legacy namespace {@code -} (as Terraform reads it, for {@code state replace-provider}
     * to fix). Errors are diagnostics without a source range whose detail says what is wrong.
     */
    public static Result<AbsProviderConfig> parse(String s) {
        Result<Traversal> t = Addrs.parseTraversal(s);
        if (t.hasErrors() || t.value() == null) {
            return invalid(s, "it is not a dotted address");
        }
        List<Traverser> steps = t.value().steps();
        List<String> modules = new ArrayList<>();
        int i = 0;
        while (i < steps.size() && "module".equals(name(steps.get(i)))) {
            if (i + 1 >= steps.size() || !(steps.get(i + 1) instanceof Traverser.Attr m)) {
                return invalid(s, "\"module.\" must be followed by a module name");
            }
            modules.add(m.name());
            i += 2;
            if (i < steps.size() && steps.get(i) instanceof Traverser.Index) {
                return invalid(s, "a provider configuration's module path cannot contain instance keys");
            }
        }
        if (i + 1 >= steps.size() || !"provider".equals(name(steps.get(i)))) {
            return invalid(s, "it must name a provider, as in provider[\"registry.terraform.io/hashicorp/aws\"]");
        }
        Provider provider;
        switch (steps.get(i + 1)) {
            case Traverser.Index ix
            when ix.key() instanceof Literal.StringLit source -> {
                Result<Provider> p = Provider.parse(source.value(), null);
                if (p.value() == null) {
                    return invalid(s, p.diagnostics().iterator().next().detail());
                }
                provider = p.value();
            }
            case Traverser.Attr legacy -> provider = new Provider(Provider.DEFAULT_HOSTNAME, "-", legacy.name());
            default -> {
                return invalid(
                        s,
                        "the provider must be a quoted source address, as in "
                                + "provider[\"registry.terraform.io/hashicorp/aws\"]");
            }
        }
        i += 2;
        String alias = null;
        if (i < steps.size() && steps.get(i) instanceof Traverser.Attr a) {
            alias = a.name();
            i++;
        }
        if (i < steps.size()) {
            return invalid(
                    s,
                    "only an alias may follow the provider, as in provider[\"registry.terraform.io/hashicorp/aws\"].west");
        }
        return Result.of(new AbsProviderConfig(new Module(modules), provider, alias));
    }

    private static String name(Traverser t) {
        return switch (t) {
            case Traverser.Root r -> r.name();
            case Traverser.Attr a -> a.name();
            case Traverser.Index x -> null;
            case Traverser.Splat x -> null;
        };
    }

    private static Result<AbsProviderConfig> invalid(String s, String why) {
        String detail = why.endsWith(".") ? why.substring(0, why.length() - 1) : why;
        return Result.of(
                null,
                Diagnostics.of(Diagnostic.error(
                        "Invalid provider configuration address",
                        "\"" + s + "\" is not a valid provider configuration address: " + detail + ".",
                        null)));
    }

    @Override
    public int compareTo(AbsProviderConfig o) {
        int c = module.compareTo(o.module);
        if (c == 0) {
            c = provider.compareTo(o.provider);
        }
        return c != 0 ? c : String.valueOf(alias).compareTo(String.valueOf(o.alias));
    }

    @Override
    public String toString() {
        String s = "provider[\"" + provider + "\"]" + (alias == null ? "" : "." + alias);
        return module.isRoot() ? s : module + "." + s;
    }
}
