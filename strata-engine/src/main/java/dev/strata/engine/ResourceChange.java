package dev.strata.engine;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.AttributePath;
import dev.strata.lang.value.Value;
import dev.strata.provider.PrivateState;
import java.util.List;
import java.util.Objects;

/**
 * The planned change of one resource instance object. {@code before} is the prior (refreshed)
 * object, null-valued on create; {@code after} is the planned object (unknown where known only
 * after apply), null-valued on delete. Values carry sensitive marks; renderers must honour them.
 *
 * @param deposed      the deposed key when the change is to a deposed object, else null
 * @param reason       Terraform's {@code action_reason} (e.g. {@code replace_because_cannot_update}), or null
 * @param replacePaths the attributes whose change forces replacement
 * @param previousAddr the address the object had before a {@code moved} block, or null
 * @param importId     the id to import the object with ({@code import} block), or null
 */
public record ResourceChange(
        AbsResourceInstance addr,
        String deposed,
        Action action,
        Value before,
        Value after,
        List<AttributePath> replacePaths,
        String reason,
        AbsProviderConfig provider,
        long schemaVersion,
        PrivateState plannedPrivate,
        AbsResourceInstance previousAddr,
        String importId) {
    public ResourceChange {
        Objects.requireNonNull(addr, "addr");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(after, "after");
        replacePaths = List.copyOf(replacePaths);
        Objects.requireNonNull(provider, "provider");
        plannedPrivate = plannedPrivate == null ? PrivateState.EMPTY : plannedPrivate;
    }

    /**
     * Terraform's order of changes in plans (human and JSON): shallower modules first, as its module
     * instance order compares depth before names (module.b before module.a.module.z); within a module
     * data resources before managed ones (its resource order compares the mode first, data sorting
     * before managed), then type, name and instance key.
     */
    public static final java.util.Comparator<ResourceChange> TERRAFORM_ORDER =
            java.util.Comparator.<ResourceChange>comparingInt(
                            c -> c.addr().module().steps().size())
                    .thenComparing(c -> c.addr().module())
                    .thenComparing(
                            c -> c.addr().resource().resource().mode() == dev.strata.addr.ResourceMode.DATA ? 0 : 1)
                    .thenComparing(ResourceChange::addr);

    ResourceChange withAction(Action a, String why) {
        return new ResourceChange(
                addr,
                deposed,
                a,
                before,
                after,
                replacePaths,
                why,
                provider,
                schemaVersion,
                plannedPrivate,
                previousAddr,
                importId);
    }

    /** This change of an object a {@code moved} block took from {@code from}. */
    ResourceChange movedFrom(AbsResourceInstance from) {
        return new ResourceChange(
                addr,
                deposed,
                action,
                before,
                after,
                replacePaths,
                reason,
                provider,
                schemaVersion,
                plannedPrivate,
                from,
                importId);
    }
}
