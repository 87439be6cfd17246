// Toast defaults of spec §9 (5 s, top-right, pause on hover and focus loss, close on click,
// draggable at 80 %), and the one helper screens call to show a failure.
import { toast, type ToastContainerProps } from 'react-toastify';
import { TOAST_MS } from '@sentinelle/contracts';

export const TOAST_CONTAINER_PROPS: ToastContainerProps = {
  position: 'top-right',
  autoClose: TOAST_MS.default,
  pauseOnHover: true,
  pauseOnFocusLoss: true,
  closeOnClick: true,
  draggable: true,
  draggablePercent: 80,
};

export function showErrorToast(message: string): void {
  toast.error(message, { toastId: message });
}
