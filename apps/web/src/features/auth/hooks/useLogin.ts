// Starts the Steam sign-in: asks the server for its login URL and sends the browser there.
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { showErrorToast } from '../../../components/ui/toast.js';
import { fetchLoginUrl } from '../api/auth.js';

export function useLogin() {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: fetchLoginUrl,
    onSuccess: (loginUrl) => window.location.assign(loginUrl),
    onError: (error) => showErrorToast(error.message || t('auth.loginStartFailed')),
  });
}
