package dev.strata.engine;

import dev.strata.addr.AbsProviderConfig;
import dev.strata.addr.AbsResource;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.Module;
import dev.strata.addr.ModuleInstance;
import dev.strata.addr.Resource;
import dev.strata.addr.ResourceMode;
import dev.strata.hcl.Result;
import dev.strata.state.ResourceAddr;
import dev.strata.state.ResourceInstanceAddr;
import java.util.ArrayList;
import java.util.List;

/** Conversions between the engine's typed addresses and the state model's. */
public final class StateAddrs {
    private StateAddrs() {}

    static ResourceAddr of(AbsResource r) {
        return new ResourceAddr(r.module().toString(), r.resource().mode() == ResourceMode.MANAGED
                ? dev.strata.state.ResourceMode.MANAGED : dev.strata.state.ResourceMode.DATA,
                r.resource().type(), r.resource().name());
    }

    static dev.strata.state.InstanceKey of(InstanceKey k) {
        return switch (k) {
            case InstanceKey.NoKey n -> dev.strata.state.InstanceKey.NONE;
            case InstanceKey.IntKey i -> new dev.strata.state.InstanceKey.IntKey(i.index());
            case InstanceKey.StringKey s -> new dev.strata.state.InstanceKey.StringKey(s.key());
        };
    }

    public static InstanceKey of(dev.strata.state.InstanceKey k) {
        return switch (k) {
            case dev.strata.state.InstanceKey.NoKey n -> InstanceKey.NONE;
            case dev.strata.state.InstanceKey.IntKey i -> InstanceKey.of((int) i.value());
            case dev.strata.state.InstanceKey.StringKey s -> InstanceKey.of(s.value());
        };
    }

    static ResourceInstanceAddr of(AbsResourceInstance ri) {
        return new ResourceInstanceAddr(of(ri.containingResource()), of(ri.resource().key()));
    }

    public static AbsResource of(ResourceAddr a) {
        ModuleInstance mi = a.module().isEmpty() ? ModuleInstance.ROOT
                : Addrs.parseModuleInstance(a.module()).value();
        Resource r = a.mode() == dev.strata.state.ResourceMode.MANAGED ? Resource.managed(a.type(), a.name())
                : Resource.data(a.type(), a.name());
        return mi.resource(r);
    }

    static AbsResourceInstance of(ResourceInstanceAddr a) {
        return of(a.resource()).instance(of(a.key()));
    }

    /** Parses the state's provider field, e.g. {@code module.a.provider["registry.terraform.io/hashicorp/aws"].west}. */
    public static AbsProviderConfig provider(String s) {
        int at = s.indexOf("provider[\"");
        if (at < 0) {
            return null;
        }
        Module m = Module.ROOT;
        if (at > 0) {
            List<String> names = new ArrayList<>();
            for (String part : s.substring(0, at - 1).split("\\.")) {
                if (!part.equals("module")) {
                    names.add(part);
                }
            }
            m = new Module(names);
        }
        int end = s.indexOf("\"]", at);
        if (end < 0) {
            return null;
        }
        Result<dev.strata.addr.Provider> p = dev.strata.addr.Provider.parse(s.substring(at + 10, end), null);
        if (p.value() == null) {
            return null;
        }
        String rest = s.substring(end + 2);
        return new AbsProviderConfig(m, p.value(), rest.startsWith(".") ? rest.substring(1) : null);
    }
}
