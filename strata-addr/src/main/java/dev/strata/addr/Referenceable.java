package dev.strata.addr;

/**
 * Something an expression can refer to, within one module: the subject of a {@link Reference}.
 * Ordered by canonical rendering, so sets of references iterate deterministically.
 */
public sealed interface Referenceable extends Comparable<Referenceable>
        permits InputVariable,
                LocalValue,
                ModuleCall,
                ModuleCallInstance,
                ModuleCallInstanceOutput,
                Resource,
                ResourceInstance,
                CountAttr,
                ForEachAttr,
                PathAttr,
                TerraformAttr,
                Self {

    @Override
    default int compareTo(Referenceable o) {
        return toString().compareTo(o.toString());
    }
}
