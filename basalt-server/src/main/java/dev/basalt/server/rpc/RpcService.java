package dev.basalt.server.rpc;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.hbase.thirdparty.com.google.protobuf.Descriptors.MethodDescriptor;
import org.apache.hbase.thirdparty.com.google.protobuf.Descriptors.ServiceDescriptor;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * One protobuf service a server offers (ClientService, MasterService, ClientMetaService, ...) with
 * the handlers of the methods it implements. Clients name the service by its simple descriptor name
 * in the connection header, then call methods by their exact, case-sensitive .proto names. A method
 * the service declares but that has no handler is answered with DoNotRetryIOException naming the
 * service and method.
 *
 * <p>Immutable once built; safe to share between servers and threads.
 */
public final class RpcService {
  /** A registered method: how to parse its parameter and who serves it. */
  record Method(
      MethodDescriptor descriptor,
      Message requestPrototype,
      MethodHandler<?> handler,
      InlineRule<?> inlineRule) {

    /** Whether the network thread may run this call itself (see {@link InlineRule}). */
    @SuppressWarnings("unchecked")
    boolean runsInline(Message param) {
      return inlineRule != null && ((InlineRule<Message>) inlineRule).runsInline(param);
    }
  }

  private final ServiceDescriptor descriptor;
  private final Map<String, Method> methods;

  private RpcService(ServiceDescriptor descriptor, Map<String, Method> methods) {
    this.descriptor = descriptor;
    this.methods = Collections.unmodifiableMap(new LinkedHashMap<>(methods));
  }

  /** Starts a service, e.g. {@code builder(ClientMetaService.getDescriptor())}. */
  public static Builder builder(ServiceDescriptor descriptor) {
    return new Builder(descriptor);
  }

  /** The name clients put in the connection header, e.g. "ClientService". */
  public String name() {
    return descriptor.getName();
  }

  public ServiceDescriptor descriptor() {
    return descriptor;
  }

  /** Whether the method is registered with an {@link InlineRule}. */
  boolean hasInlineRule(String name) {
    Method m = methods.get(name);
    return m != null && m.inlineRule() != null;
  }

  /** The registered method, or null (unknown to the service, or declared without a handler). */
  Method method(String name) {
    return methods.get(name);
  }

  /** Collects method handlers; see {@link #method}. */
  public static final class Builder {
    private final ServiceDescriptor descriptor;
    private final Map<String, Method> methods = new LinkedHashMap<>();

    private Builder(ServiceDescriptor descriptor) {
      this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
    }

    /**
     * Registers the handler of one method.
     *
     * @param name the method name as in the .proto file, e.g. "GetClusterId"
     * @param requestPrototype the default instance of the method's request type, e.g. {@code
     *     GetClusterIdRequest.getDefaultInstance()}; requests are parsed into it
     * @throws IllegalArgumentException when the service has no such method, the prototype is not
     *     its request type, or the method is registered twice
     */
    public <Q extends Message> Builder method(
        String name, Q requestPrototype, MethodHandler<Q> handler) {
      return method(name, requestPrototype, handler, null);
    }

    /**
     * Registers the handler of one method whose calls the network thread may run itself when {@code
     * inline} accepts them (see {@link InlineRule}); the handler must then be safe to run on the
     * network thread inside {@link dev.basalt.util.NoWait#attempt}.
     */
    public <Q extends Message> Builder method(
        String name, Q requestPrototype, MethodHandler<Q> handler, InlineRule<Q> inline) {
      MethodDescriptor md = descriptor.findMethodByName(name);
      if (md == null) {
        throw new IllegalArgumentException(
            "service " + descriptor.getName() + " declares no method " + name);
      }
      if (requestPrototype.getDescriptorForType() != md.getInputType()) {
        throw new IllegalArgumentException(
            descriptor.getName()
                + "."
                + name
                + " takes "
                + md.getInputType().getFullName()
                + ", not "
                + requestPrototype.getDescriptorForType().getFullName());
      }
      Objects.requireNonNull(handler, "handler");
      if (methods.putIfAbsent(name, new Method(md, requestPrototype, handler, inline)) != null) {
        throw new IllegalArgumentException(
            descriptor.getName() + "." + name + " is registered twice");
      }
      return this;
    }

    public RpcService build() {
      return new RpcService(descriptor, methods);
    }
  }
}
