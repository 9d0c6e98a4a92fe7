package dev.strata.config;

import dev.strata.addr.LocalProviderConfig;
import dev.strata.addr.Provider;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.GoQuote;
import dev.strata.hcl.SourceRange;
import java.util.ArrayList;
import java.util.List;

/**
 * The checks of provider configurations across module calls that Terraform makes while it builds the
 * configuration tree, before anything is evaluated: so {@code init}, {@code validate}, {@code plan} and
 * {@code apply} all report them, an error stops each of them there (nothing else of the configuration is
 * checked), and each is reported once per module call, however many instances the call has. A module
 * called from several places is checked at each, as its path is part of what is reported.
 *
 * <ul>
 *   <li>"Module is incompatible with count, for_each, and depends_on": a module that configures a provider
 *       itself (a {@code provider} block with anything in it but {@code alias}, or a {@code version}) called
 *       with {@code count}, {@code for_each} or {@code depends_on}, or below such a call at any depth. It is
 *       reported at the nearest such call above the module: at its {@code count}, else its {@code for_each},
 *       else the first reference of its {@code depends_on} (an empty {@code depends_on} does not count).
 *   <li>"Reference to undefined provider" at a {@code providers} key: the child declares no such local name
 *       ({@code required_providers}), no such {@code configuration_aliases} entry and no empty (proxy)
 *       {@code provider} block of that name, so the provider is assumed. A warning when that is a
 *       {@code hashicorp} provider, as it always is for an unaliased key; an aliased key
 *       ({@code aws.two}) is never a plain local name, so it needs a {@code configuration_aliases} entry or a
 *       proxy block, and where the child's {@code aws} is another namespace's provider it is an error.
 *   <li>"Reference to undefined provider" at a {@code providers} value: an unaliased configuration the calling
 *       module neither declares in {@code required_providers} nor configures with a non-empty
 *       {@code provider} block (a warning).
 * </ul>
 *
 * <p>Nothing is said about a call that passes no {@code providers}: its child inherits the default
 * configurations.
 */
final class ModuleProviderChecks {
    private ModuleProviderChecks() {}

    static Diagnostics check(ConfigNode root) {
        List<Diagnostic> out = new ArrayList<>();
        walk(root, null, out);
        return Diagnostics.of(out);
    }

    /**
     * {@code repeated} is where the nearest call above {@code node} (its own call included) set
     * {@code count}, {@code for_each} or {@code depends_on}, or null.
     */
    private static void walk(ConfigNode node, SourceRange repeated, List<Diagnostic> out) {
        // As Terraform: a module's descendants first, then the module itself.
        for (ConfigNode child : node.children().values()) {
            SourceRange own = repetition(child.call());
            walk(child, own != null ? own : repeated, out);
        }
        ModuleConfig m = node.module();
        for (ModuleCallConfig call : m.moduleCalls().values()) {
            for (PassedProvider p : call.providers()) {
                undeclaredInParent(node, p, out);
            }
        }
        if (node.isRoot()) {
            return;
        }
        if (repeated != null && m.providerConfigs().values().stream().anyMatch(pc -> !pc.empty())) {
            // Reported at the call's count (for_each, depends_on): its author is more likely the reader
            // than the author of the module.
            out.add(Diagnostic.error(
                    "Module is incompatible with count, for_each, and depends_on",
                    "The module at " + node.path()
                            + " is a legacy module which contains its own local provider configurations, and so "
                            + "calls to it may not use the count, for_each, or depends_on arguments.\n\nIf you also "
                            + "control the module "
                            + GoQuote.quote(displaySource(node.call().source()))
                            + ", consider updating this module to instead expect provider configurations to be "
                            + "passed by its caller.",
                    repeated));
        }
        for (PassedProvider p : node.call().providers()) {
            undeclaredInChild(node, p, out);
        }
    }

    /** Where Terraform reports a legacy module below {@code call}: count, else for_each, else the first depends_on. */
    private static SourceRange repetition(ModuleCallConfig call) {
        if (call.count() != null) {
            return call.count().range();
        }
        if (call.forEach() != null) {
            return call.forEach().range();
        }
        return call.dependsOn().isEmpty() ? null : call.dependsOn().getFirst().range();
    }

    private static void undeclaredInChild(ConfigNode child, PassedProvider p, List<Diagnostic> out) {
        ModuleConfig m = child.module();
        LocalProviderConfig name = p.inChild();
        RequiredProvider rp = m.requiredProviders().get(name.localName());
        boolean declared = name.alias() == null && rp != null;
        boolean configurationAlias = rp != null && rp.configurationAliases().contains(name);
        ProviderConfig block = m.providerConfigs().get(name);
        if (declared || configurationAlias || block != null && block.empty()) {
            return;
        }
        // The provider the child's local name stands for: its required_providers entry, a provider block's
        // hashicorp default, or (neither) the hashicorp provider of that name.
        Provider assumed = rp != null && rp.source() != null ? rp.source() : Provider.hashicorp(name.localName());
        String key = name.toString();
        String provider = assumed.forDisplay();
        if (assumed.hostname().equals(Provider.DEFAULT_HOSTNAME)
                && assumed.namespace().equals(Provider.DEFAULT_NAMESPACE)) {
            out.add(Diagnostic.warning(
                    "Reference to undefined provider",
                    "There is no explicit declaration for local provider name " + GoQuote.quote(key) + " in "
                            + child.path() + ", so Strata is assuming you mean to pass a configuration for "
                            + GoQuote.quote(provider) + ".\n\nIf you also control the child module, add a "
                            + "required_providers entry named " + GoQuote.quote(key) + " with the source address "
                            + GoQuote.quote(provider) + ".",
                    p.inChildNameRange()));
        } else {
            out.add(Diagnostic.error(
                    "Reference to undefined provider",
                    "The child module does not declare any provider requirement with the local name "
                            + GoQuote.quote(key) + ".\n\nIf you also control the child module, you can add a "
                            + "required_providers entry named " + GoQuote.quote(key) + " with the source address "
                            + GoQuote.quote(provider) + " to accept this provider configuration.",
                    p.inChildNameRange()));
        }
    }

    private static void undeclaredInParent(ConfigNode node, PassedProvider p, List<Diagnostic> out) {
        LocalProviderConfig in = p.inParent().config();
        // Aliased configurations are never inherited: whether they exist is checked where they are used.
        if (in.alias() != null) {
            return;
        }
        ModuleConfig m = node.module();
        ProviderConfig block = m.providerConfigs().get(in);
        if (block != null && !block.empty() || m.requiredProviders().containsKey(in.localName())) {
            return;
        }
        String name = in.localName();
        String provider = Provider.hashicorp(name).forDisplay();
        // As Terraform words it: the module to add the entry to is the caller of this one, which for a
        // module called from the root module (and for the root module itself) is the root module.
        String here = node.isRoot() ? "the root module" : node.path().toString();
        String parent = node.isRoot() || node.path().parent().isRoot()
                ? "the root module"
                : node.path().parent().toString();
        out.add(Diagnostic.warning(
                "Reference to undefined provider",
                "There is no explicit declaration for local provider name " + GoQuote.quote(name) + " in " + here
                        + ", so Strata is assuming you mean to pass a configuration for provider "
                        + GoQuote.quote(provider) + ".\n\nTo clarify your intent and silence this warning, add to "
                        + parent + " a required_providers entry named " + GoQuote.quote(name) + " with source = "
                        + GoQuote.quote(provider) + ", or a different source address if appropriate.",
                p.inParent().range()));
    }

    /**
     * A module source as Terraform shows it: a local path made clean ({@code ./own/} and {@code ./x/../own} are
     * {@code ./own}), others as its manifest records them (a registry address with its host).
     */
    static String displaySource(String source) {
        String s = source.replace('\\', '/');
        if (!s.startsWith("./") && !s.startsWith("../")) {
            return ModuleSource.normalized(source);
        }
        String clean = cleanPath(s);
        return clean.startsWith("../") ? clean : "./" + clean;
    }

    /** A relative slash-separated path as Go's {@code path.Clean} makes it. */
    private static String cleanPath(String p) {
        List<String> out = new ArrayList<>();
        int leadingUp = 0;
        for (String part : p.split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                if (out.size() > leadingUp) {
                    out.removeLast();
                } else {
                    out.add("..");
                    leadingUp++;
                }
                continue;
            }
            out.add(part);
        }
        return out.isEmpty() ? "." : String.join("/", out);
    }
}
