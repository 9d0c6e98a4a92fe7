package dev.strata.state;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Provider;
import dev.strata.addr.Targetable;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Result;
import java.util.ArrayList;
import java.util.List;

/**
 * The edits behind {@code state rm} and {@code state mv}, as pure functions from one snapshot to the
 * next, so they are tested without files and any backend can apply them.
 */
public final class StateEdits {
    private StateEdits() {}

    /** Instances matched by an address: all of a module (and below), all of a resource, or one instance. */
    public static List<AbsResourceInstance> matching(StateSnapshot s, Targetable a) {
        return s.instanceAddresses().stream().filter(i -> matches(a, i)).toList();
    }

    /**
     * The instances an address names as {@code state list} and {@code state rm} read it: as {@link #matching},
     * but a module call without a key names all of its instances, as in Terraform.
     */
    public static List<AbsResourceInstance> targeted(StateSnapshot s, Targetable a) {
        return s.instanceAddresses().stream()
                .filter(i -> a instanceof ModuleInstance m ? m.targetContains(i.module()) : matches(a, i))
                .toList();
    }

    static boolean matches(Targetable a, AbsResourceInstance i) {
        return switch (a) {
            case ModuleInstance m -> m.contains(i.module());
            case AbsResource r -> r.equals(i.containingResource());
            case AbsResourceInstance in -> in.equals(i);
        };
    }

    /** The snapshot without the given instances (resources left without instances go too). */
    public static StateSnapshot remove(StateSnapshot s, List<AbsResourceInstance> gone) {
        List<ResourceState> out = new ArrayList<>();
        for (ResourceState r : s.resources()) {
            List<ResourceInstanceObject> kept = r.instances().stream()
                    .filter(o -> !gone.contains(r.addr().instance(o.key())))
                    .toList();
            if (kept.size() == r.instances().size()) {
                out.add(r);
            } else if (!kept.isEmpty()) {
                out.add(r.withInstances(kept));
            }
        }
        return s.withResources(out);
    }

    /**
     * Moves a module, a resource or an instance to a new address. The destination must be free, and
     * of the same kind (a resource keeps its type). Returns the new snapshot, or diagnostics worded like
     * Terraform's.
     */
    public static Result<StateSnapshot> move(StateSnapshot s, Targetable src, Targetable dst) {
        if (matching(s, src).isEmpty()) {
            return fail(
                    "Invalid source address", "Cannot move " + src + ": does not match anything in the current state.");
        }
        return switch (src) {
            case ModuleInstance m -> {
                if (!(dst instanceof ModuleInstance to)) {
                    yield fail(
                            "Invalid state move request",
                            "Cannot move " + src + " to " + dst + ": a module can only move to a module address.");
                }
                if (!matching(s, to).isEmpty()) {
                    yield fail(
                            "Invalid target address",
                            "Cannot move to " + dst
                                    + ": there is already a module at that address in the current state.");
                }
                List<ResourceState> out = new ArrayList<>();
                for (ResourceState r : s.resources()) {
                    if (m.contains(r.module())) {
                        List<ModuleInstance.Step> path = new ArrayList<>(to.steps());
                        path.addAll(r.module()
                                .steps()
                                .subList(m.steps().size(), r.module().steps().size()));
                        out.add(r.withAddr(
                                new ModuleInstance(path).resource(r.addr().resource())));
                    } else {
                        out.add(r);
                    }
                }
                yield Result.of(s.withResources(out));
            }
            case AbsResource r ->
                switch (dst) {
                    case ModuleInstance to ->
                        fail(
                                "Invalid state move request",
                                "Cannot move " + src + " to " + dst
                                        + ": a resource can only move to a resource or resource instance address.");
                    case AbsResource to -> {
                        Result<StateSnapshot> bad = checkType(r, to);
                        if (bad != null) {
                            yield bad;
                        }
                        if (s.resource(to).isPresent()) {
                            yield fail(
                                    "Invalid target address",
                                    "Cannot move to " + dst
                                            + ": there is already a resource at that address in the current state.");
                        }
                        List<ResourceState> out = new ArrayList<>();
                        for (ResourceState x : s.resources()) {
                            out.add(x.addr().equals(r) ? x.withAddr(to) : x);
                        }
                        yield Result.of(s.withResources(out));
                    }
                    case AbsResourceInstance to -> {
                        ResourceState from = s.resource(r).orElseThrow();
                        List<InstanceKey> keys = from.instances().stream()
                                .map(ResourceInstanceObject::key)
                                .distinct()
                                .toList();
                        if (keys.size() != 1) {
                            yield fail(
                                    "Invalid state move request",
                                    "Cannot move " + src + " to " + dst + ": the resource has " + keys.size()
                                            + " instances; move them one at a time.");
                        }
                        yield moveInstance(s, r.instance(keys.get(0)), to);
                    }
                };
            case AbsResourceInstance i ->
                switch (dst) {
                    case ModuleInstance to ->
                        fail(
                                "Invalid state move request",
                                "Cannot move " + src + " to " + dst
                                        + ": a resource instance can only move to a resource or resource instance address.");
                    case AbsResource to -> moveInstance(s, i, to.instance(InstanceKey.NONE));
                    case AbsResourceInstance to -> moveInstance(s, i, to);
                };
        };
    }

    private static Result<StateSnapshot> moveInstance(
            StateSnapshot s, AbsResourceInstance from, AbsResourceInstance to) {
        Result<StateSnapshot> bad = checkType(from.containingResource(), to.containingResource());
        if (bad != null) {
            return bad;
        }
        if (from.equals(to)) {
            return Result.of(s);
        }
        if (!s.objects(to).isEmpty()) {
            return fail(
                    "Invalid target address",
                    "Cannot move to " + to
                            + ": there is already a resource instance at that address in the current state.");
        }
        ResourceState src = s.resource(from.containingResource()).orElseThrow();
        List<ResourceInstanceObject> moving = src.instances().stream()
                .filter(o -> o.key().equals(from.resource().key()))
                .map(o -> o.withKey(to.resource().key()))
                .toList();
        StateSnapshot without = remove(s, List.of(from));
        List<ResourceState> out = new ArrayList<>();
        boolean placed = false;
        for (ResourceState r : without.resources()) {
            if (r.addr().equals(to.containingResource())) {
                List<ResourceInstanceObject> objs = new ArrayList<>(r.instances());
                objs.addAll(moving);
                out.add(r.withInstances(objs));
                placed = true;
            } else {
                out.add(r);
            }
        }
        if (!placed) {
            out.add(new ResourceState(to.containingResource(), null, src.provider(), moving, src.extra()));
        }
        return Result.of(s.withResources(out));
    }

    /** The resources whose provider is {@code from} and the snapshot with it replaced by {@code to}. */
    public record ProviderReplacement(StateSnapshot state, List<AbsResource> changed, String from, String to) {}

    /**
     * {@code state replace-provider}: points every resource using provider {@code from} at {@code to},
     * keeping module paths and aliases. Providers are given as Terraform writes them on the command line:
     * {@code hashicorp/aws} (on registry.terraform.io) or {@code host/namespace/type}.
     */
    public static Result<ProviderReplacement> replaceProvider(StateSnapshot s, String from, String to) {
        String f = providerFqn(from);
        String t = providerFqn(to);
        if (f == null || t == null) {
            String bad = f == null ? from : to;
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Invalid provider address",
                            "\"" + bad
                                    + "\" is not a provider address. Write it as NAMESPACE/TYPE (for registry.terraform.io) or "
                                    + "HOSTNAME/NAMESPACE/TYPE, for example hashicorp/aws.",
                            null)));
        }
        String[] parts = t.split("/");
        Provider replacement = new Provider(parts[0], parts[1], parts[2]);
        List<ResourceState> out = new ArrayList<>();
        List<AbsResource> changed = new ArrayList<>();
        for (ResourceState r : s.resources()) {
            AbsProviderConfig p = r.provider();
            if (p.provider().toString().equals(f)) {
                out.add(r.withProvider(new AbsProviderConfig(p.module(), replacement, p.alias())));
                changed.add(r.addr());
            } else {
                out.add(r);
            }
        }
        return Result.of(new ProviderReplacement(s.withResources(out), changed, f, t));
    }

    /** A fully qualified provider source, or null if {@code text} is not one. */
    static String providerFqn(String text) {
        String[] parts = text.split("/", -1);
        if (parts.length < 2 || parts.length > 3) {
            return null;
        }
        for (String p : parts) {
            if (p.isEmpty() || !p.matches("[A-Za-z0-9._-]+")) {
                return null;
            }
        }
        return parts.length == 2
                ? "registry.terraform.io/" + parts[0].toLowerCase(java.util.Locale.ROOT) + "/"
                        + parts[1].toLowerCase(java.util.Locale.ROOT)
                : parts[0].toLowerCase(java.util.Locale.ROOT) + "/" + parts[1].toLowerCase(java.util.Locale.ROOT) + "/"
                        + parts[2].toLowerCase(java.util.Locale.ROOT);
    }

    private static Result<StateSnapshot> checkType(AbsResource from, AbsResource to) {
        if (from.resource().mode() != to.resource().mode()
                || !from.resource().type().equals(to.resource().type())) {
            return fail(
                    "Invalid state move request",
                    "Cannot move " + from + " to " + to + ": resource types don't match.");
        }
        return null;
    }

    private static Result<StateSnapshot> fail(String summary, String detail) {
        return Result.of(null, Diagnostics.of(Diagnostic.error(summary, detail, null)));
    }
}
