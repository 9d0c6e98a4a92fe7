package dev.strata.state;

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
    public static List<ResourceInstanceAddr> matching(StateSnapshot s, StateAddress a) {
        return s.instanceAddresses().stream().filter(i -> matches(a, i)).toList();
    }

    static boolean matches(StateAddress a, ResourceInstanceAddr i) {
        return switch (a) {
            case StateAddress.Module m -> m.contains(i.resource().module());
            case StateAddress.Resource r -> r.addr().equals(i.resource());
            case StateAddress.Instance in -> in.addr().equals(i);
        };
    }

    /** The snapshot without the given instances (resources left without instances go too). */
    public static StateSnapshot remove(StateSnapshot s, List<ResourceInstanceAddr> gone) {
        List<ResourceState> out = new ArrayList<>();
        for (ResourceState r : s.resources()) {
            List<ResourceInstanceObject> kept = r.instances().stream()
                    .filter(o -> !gone.contains(r.addr().instance(o.key()))).toList();
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
    public static Result<StateSnapshot> move(StateSnapshot s, StateAddress src, StateAddress dst) {
        if (matching(s, src).isEmpty()) {
            return fail("Invalid source address", "Cannot move " + src + ": does not match anything in the current state.");
        }
        return switch (src) {
            case StateAddress.Module m -> {
                if (!(dst instanceof StateAddress.Module to)) {
                    yield fail("Invalid state move request", "Cannot move " + src + " to " + dst + ": a module can only move to a module address.");
                }
                if (!matching(s, to).isEmpty()) {
                    yield fail("Invalid target address", "Cannot move to " + dst + ": there is already a module at that address in the current state.");
                }
                List<ResourceState> out = new ArrayList<>();
                for (ResourceState r : s.resources()) {
                    if (m.contains(r.module())) {
                        String rest = r.module().substring(m.path().length());
                        out.add(r.withAddr(new ResourceAddr(to.path() + rest, r.mode(), r.type(), r.name())));
                    } else {
                        out.add(r);
                    }
                }
                yield Result.of(s.withResources(out));
            }
            case StateAddress.Resource r -> switch (dst) {
                case StateAddress.Module to -> fail("Invalid state move request", "Cannot move " + src + " to " + dst
                        + ": a resource can only move to a resource or resource instance address.");
                case StateAddress.Resource to -> {
                    Result<StateSnapshot> bad = checkType(r.addr(), to.addr());
                    if (bad != null) {
                        yield bad;
                    }
                    if (s.resource(to.addr()).isPresent()) {
                        yield fail("Invalid target address", "Cannot move to " + dst + ": there is already a resource at that address in the current state.");
                    }
                    List<ResourceState> out = new ArrayList<>();
                    for (ResourceState x : s.resources()) {
                        out.add(x.addr().equals(r.addr()) ? x.withAddr(to.addr()) : x);
                    }
                    yield Result.of(s.withResources(out));
                }
                case StateAddress.Instance to -> {
                    ResourceState from = s.resource(r.addr()).orElseThrow();
                    List<InstanceKey> keys = from.instances().stream().map(ResourceInstanceObject::key).distinct().toList();
                    if (keys.size() != 1) {
                        yield fail("Invalid state move request", "Cannot move " + src + " to " + dst + ": the resource has "
                                + keys.size() + " instances; move them one at a time.");
                    }
                    yield moveInstance(s, r.addr().instance(keys.get(0)), to.addr());
                }
            };
            case StateAddress.Instance i -> switch (dst) {
                case StateAddress.Module to -> fail("Invalid state move request", "Cannot move " + src + " to " + dst
                        + ": a resource instance can only move to a resource or resource instance address.");
                case StateAddress.Resource to -> moveInstance(s, i.addr(), to.addr().instance(InstanceKey.NONE));
                case StateAddress.Instance to -> moveInstance(s, i.addr(), to.addr());
            };
        };
    }

    private static Result<StateSnapshot> moveInstance(StateSnapshot s, ResourceInstanceAddr from, ResourceInstanceAddr to) {
        Result<StateSnapshot> bad = checkType(from.resource(), to.resource());
        if (bad != null) {
            return bad;
        }
        if (from.equals(to)) {
            return Result.of(s);
        }
        if (!s.objects(to).isEmpty()) {
            return fail("Invalid target address", "Cannot move to " + to + ": there is already a resource instance at that address in the current state.");
        }
        ResourceState src = s.resource(from.resource()).orElseThrow();
        List<ResourceInstanceObject> moving = src.instances().stream().filter(o -> o.key().equals(from.key()))
                .map(o -> o.withKey(to.key())).toList();
        StateSnapshot without = remove(s, List.of(from));
        List<ResourceState> out = new ArrayList<>();
        boolean placed = false;
        for (ResourceState r : without.resources()) {
            if (r.addr().equals(to.resource())) {
                List<ResourceInstanceObject> objs = new ArrayList<>(r.instances());
                objs.addAll(moving);
                out.add(r.withInstances(objs));
                placed = true;
            } else {
                out.add(r);
            }
        }
        if (!placed) {
            out.add(new ResourceState(to.resource().module(), to.resource().mode(), to.resource().type(), to.resource().name(),
                    null, src.provider(), moving, src.extra()));
        }
        return Result.of(s.withResources(out));
    }

    /** The resources whose provider is {@code from} and the snapshot with it replaced by {@code to}. */
    public record ProviderReplacement(StateSnapshot state, List<ResourceAddr> changed, String from, String to) {}

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
            return Result.of(null, Diagnostics.of(Diagnostic.error("Invalid provider address", "\"" + bad
                    + "\" is not a provider address. Write it as NAMESPACE/TYPE (for registry.terraform.io) or "
                    + "HOSTNAME/NAMESPACE/TYPE, for example hashicorp/aws.", null)));
        }
        String needle = "provider[\"" + f + "\"]";
        List<ResourceState> out = new ArrayList<>();
        List<ResourceAddr> changed = new ArrayList<>();
        for (ResourceState r : s.resources()) {
            int at = r.provider().indexOf(needle);
            if (at >= 0 && (at == 0 || r.provider().startsWith(".", at - 1))) {
                out.add(r.withProvider(r.provider().substring(0, at) + "provider[\"" + t + "\"]"
                        + r.provider().substring(at + needle.length())));
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
                ? "registry.terraform.io/" + parts[0].toLowerCase(java.util.Locale.ROOT) + "/" + parts[1].toLowerCase(java.util.Locale.ROOT)
                : parts[0].toLowerCase(java.util.Locale.ROOT) + "/" + parts[1].toLowerCase(java.util.Locale.ROOT) + "/"
                + parts[2].toLowerCase(java.util.Locale.ROOT);
    }

    private static Result<StateSnapshot> checkType(ResourceAddr from, ResourceAddr to) {
        if (from.mode() != to.mode() || !from.type().equals(to.type())) {
            return fail("Invalid state move request", "Cannot move " + from + " to " + to
                    + ": resource types don't match.");
        }
        return null;
    }

    private static Result<StateSnapshot> fail(String summary, String detail) {
        return Result.of(null, Diagnostics.of(Diagnostic.error(summary, detail, null)));
    }
}
